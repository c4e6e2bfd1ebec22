// RR-4770, Algorithm 1: cost[d, i] = min_e Tcomm(i, e) + max(Tcomp(i, e), cost[d - e, i + 1]).
#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "dp_table.hpp"
#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"

namespace hetlb::scatter {

Plan solve_dp_basic(const Problem& problem) {
  const Count n = problem.items;
  const std::size_t p = problem.size();
  const double steps = static_cast<double>(p) * static_cast<double>(n) * static_cast<double>(n) / 2.0;
  if (steps > kDpBasicMaxSteps)
    throw Error(fmt::format("dp-basic: p*n^2/2 = {:.3g} steps for p = {}, n = {}: expected at most {:.0g} "
                            "(use dp or exact)", steps, p, n, kDpBasicMaxSteps));
  DpTable table(problem);
  table.fill([](const CostFunction& comm, const CostFunction& comp, const std::vector<double>& next, Count d) {
    Count sol = 0;
    double best = next[d];  // e = 0
    for (Count e = 1; e <= d; ++e) {
      const double m = comm(e) + std::max(comp(e), next[d - e]);
      if (m < best) {
        best = m;
        sol = e;
      }
    }
    return std::pair{sol, best};
  });
  return table.finish("dp-basic", "Algorithm 1 (RR-4770), O(p n^2)");
}

}  // namespace hetlb::scatter
