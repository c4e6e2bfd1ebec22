// RR-4770, Section 2.2: the original MPI_Scatter distribution.
#include "hetlb/scatter/uniform.hpp"

#include "hetlb/scatter/evaluate.hpp"

namespace hetlb::scatter {

Plan solve_uniform(const Problem& problem) {
  Plan plan;
  plan.algorithm = "uniform";
  plan.method = "n/p each, remainder to the first processors in send order";
  const Count p = static_cast<Count>(problem.size());
  const Count base = problem.items / p, rest = problem.items % p;
  for (Count i = 0; i < p; ++i) plan.items.push_back(base + (i < rest ? 1 : 0));
  plan.makespan = makespan(problem, plan.items);
  return plan;
}

}  // namespace hetlb::scatter
