// "simple": the most direct way of honouring Bertsekas-Tsitsiklis' conditions (Couturier & Giersch,
// Section 2, equation of the ping-pong condition). Among the neighbours less loaded than the node,
// take the least loaded (vmin) and the most loaded (vmax); send vmin
//   s = min((x_i - x_vmin) / 2, x_i - x_vmax),
// so that afterwards x_i - s >= x_vmin + s and x_i - s >= x_j for every less loaded j.
// With `residue_equal`, "less loaded" means by at least kNegligibleTransfer of x_i: a neighbour lighter
// by floating-point residue only no longer bounds s to that residue (the draft's deadlock, Section 2,
// where it comes from rounding rather than from the loads).
//
// Time view: "less loaded" compares dates t_j = x_j / r_j; the half difference becomes the amount after
// which the node and vmin finish together, (t_i - t_vmin) / (1 + 1 / r_vmin), and the ping-pong bound
// keeps the node's date at or above every lighter neighbour's: s <= t_i - t_vmax (both in load units
// of the node, whose relative speed is 1). With r = 1 these are the two expressions above.
#include <algorithm>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::diffusion {

std::vector<double> simple_transfers(double load, const std::vector<double>& neighbours, bool residue_equal,
                                     const std::vector<double>& speeds) {
  std::vector<double> out(neighbours.size(), 0.0);
  const double lighter_than = residue_equal ? load - kNegligibleTransfer * load : load;
  int vmin = -1, vmax = -1;
  double tmin = 0, tmax = 0;
  for (int j = 0; j < static_cast<int>(neighbours.size()); ++j) {
    const double t = time_of(neighbours, speeds, j);
    if (!(t < lighter_than)) continue;
    if (vmin < 0 || t < tmin) vmin = j, tmin = t;
    if (vmax < 0 || t > tmax) vmax = j, tmax = t;
  }
  if (vmin < 0) return out;
  out[vmin] = std::min((load - tmin) / (1.0 + 1.0 / speed_of(speeds, vmin)), load - tmax);
  return out;
}

}  // namespace hetlb::diffusion

namespace hetlb::diffusion {
namespace {
std::vector<double> decide_simple(const Rule&, const NodeView& v) {
  return simple_transfers(v.load, v.neighbours, v.params[0] != 0, v.speeds);
}
}  // namespace

const Rule& simple_rule() {
  static const Rule rule{
      "simple", "simple", "half the difference to the least loaded lighter neighbour, within the ping-pong bound",
      {{"residue_equal", ParamType::flag, 0, 0, 1,
        "a neighbour lighter by less than 1e-9 of the load counts as equal (the draft's rule when 0)"}},
      decide_simple};
  return rule;
}
}  // namespace hetlb::diffusion
