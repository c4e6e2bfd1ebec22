// RR-4770, Algorithm 2: Algorithm 1 with a binary search for e_max, the smallest e with
// Tcomp(i, e) >= cost[d - e, i + 1], and a descending e-loop cut as soon as cost[d - e, i + 1]
// reaches the best value found. Requires non-decreasing costs.
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "dp_table.hpp"
#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"

namespace hetlb::scatter {

Plan solve_dp(const Problem& problem) {
  if (!problem.all_non_decreasing())
    throw Error("dp: Algorithm 2 needs non-decreasing cost functions (a table decreases somewhere); use dp-basic");
  DpTable table(problem);
  table.fill([](const CostFunction& comm, const CostFunction& comp, const std::vector<double>& next, Count d) {
    Count sol;
    double best;
    if (next[d] <= 0.0) {  // lines 11-12: Tcomp(i, 0) = 0 >= cost[d, i+1]
      sol = 0;
      best = 0.0;
    } else {  // lines 16-26 (line 13 cannot hold: cost[0, i+1] = 0 <= Tcomp(i, d))
      Count lo = 0, hi = d;  // Tcomp(i, lo) < cost[d-lo], Tcomp(i, hi) >= cost[d-hi]
      while (hi - lo > 1) {
        const Count e = lo + (hi - lo) / 2;
        if (comp(e) < next[d - e]) lo = e; else hi = e;
      }
      sol = hi;
      best = comm(hi) + comp(hi);
    }
    for (Count e = sol - 1; e >= 0; --e) {  // lines 28-35
      const double rest = next[d - e];
      const double m = comm(e) + rest;
      if (m < best) {
        best = m;
        sol = e;
      } else if (rest >= best) {
        break;
      }
    }
    return std::pair{sol, best};
  });
  return table.finish("dp", "Algorithm 2 (RR-4770), optimized dynamic programming");
}

}  // namespace hetlb::scatter
