// Integer load (Couturier & Giersch evaluate every strategy on integer load; the rules below are
// those of DASUD, Cortes, Ripoll, Cedo, Senar & Luque, JPDC 2002, adapted to one node's view).
// For a node of load x whose neighbours are believed to hold y_j (m: the least loaded, lowest index
// on ties; M: the most loaded):
//  1. the strategy's real transfers are rounded down (a tolerance of 1e-9 absorbs floating error on
//     exact integers), so the sum never exceeds what the real rule gave away;
//  2. if they all round to 0 and x - y_m >= 2, one unit goes to m (DASUD: the domain's maximum
//     feeds its minimum), which keeps the ping-pong condition (x - 1 >= y_m + 1);
//  3. if they all round to 0, x - y_m == 1 and y_M - y_m >= 2, the node's domain is unbalanced
//     while no edge of the node is: DASUD's maximum would send one unit to the minimum through this
//     node; here the node forwards one of its own units to m at once, and M, which then sees the node
//     two units below it, refills it by rule 2 or by its strategy. This is what breaks gradients of
//     one unit per hop; it violates the ping-pong condition by design (as DASUD's instruction does).
// A state where no rule fires has every domain (a node and its neighbours) within one unit, so any two
// nodes are within ceil(diameter / 2) units of each other (docs/simulation.md, "Integer load").
//
// Time view (speeds r_j relative to the node's, dates t_j = y_j / r_j; the node's date is x): m and M
// are the earliest and latest dates; rule 2 fires when one unit keeps the node's date at or above m's,
// x - 1 >= t_m + 1 / r_m; rule 3 when x - 1 >= t_m and one unit from M would keep M at or above m,
// t_M - 1 / r_M >= t_m + 1 / r_m. With r = 1 these are the conditions above, as the same operations.
#include <cmath>

#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

std::vector<double> integer_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& real_transfers, const std::vector<double>& speeds) {
  std::vector<double> out(real_transfers.size(), 0.0);
  bool any = false;
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j] = std::max(0.0, std::floor(real_transfers[j] + 1e-9));
    any = any || out[j] > 0;
  }
  if (any || neighbours.empty() || load < 1) return out;
  int least = 0, most = 0;
  double t_least = time_of(neighbours, speeds, 0), t_most = t_least;
  for (int j = 1; j < static_cast<int>(neighbours.size()); ++j) {
    const double t = time_of(neighbours, speeds, j);
    if (t < t_least) least = j, t_least = t;
    if (t > t_most) most = j, t_most = t;
  }
  const double gap = load - t_least;
  if (speeds.empty()) {
    if (gap >= 2.0 || (gap >= 1.0 && t_most - t_least >= 2.0)) out[least] = 1.0;
    return out;
  }
  const double unit_least = 1.0 / speeds[least], unit_most = 1.0 / speeds[most];
  if (gap >= 1.0 + unit_least || (gap >= 1.0 && t_most - t_least >= unit_most + unit_least)) out[least] = 1.0;
  return out;
}

}  // namespace hetlb::diffusion
