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
  std::vector<double>& next = table.next;  // cost[., i+1]
  std::vector<double>& cur = table.cur;    // cost[., i]
  for (Count d = 0; d <= n; ++d) next[d] = problem.compute[p - 1](d) + problem.comm[p - 1](d);
  for (std::size_t i = p - 1; i-- > 0;) {
    const CostFunction& comm = problem.comm[i];
    const CostFunction& comp = problem.compute[i];
    std::uint32_t* choice = table.row(i);
    cur[0] = 0.0;
    choice[0] = 0;
    for (Count d = 1; d <= n; ++d) {
      Count sol = 0;
      double best = next[d];
      for (Count e = 1; e <= d; ++e) {
        const double m = comm(e) + std::max(comp(e), next[d - e]);
        if (m < best) {
          best = m;
          sol = e;
        }
      }
      cur[d] = best;
      choice[d] = static_cast<std::uint32_t>(sol);
    }
    std::swap(cur, next);
  }
  Plan plan = table.finish("dp-basic", "Algorithm 1 (RR-4770), O(p n^2)");
  return plan;
}

}  // namespace hetlb::scatter
