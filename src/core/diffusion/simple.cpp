// "simple": the most direct way of honouring Bertsekas-Tsitsiklis' conditions (Couturier & Giersch,
// Section 2, equation of the ping-pong condition). Among the neighbours less loaded than the node,
// take the least loaded (vmin) and the most loaded (vmax); send vmin
//   s = min((x_i - x_vmin) / 2, x_i - x_vmax),
// so that afterwards x_i - s >= x_vmin + s and x_i - s >= x_j for every less loaded j.
// With `residue_equal`, "less loaded" means by at least kNegligibleTransfer of x_i: a neighbour lighter
// by floating-point residue only no longer bounds s to that residue (the draft's deadlock, Section 2,
// where it comes from rounding rather than from the loads).
#include <algorithm>

#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

std::vector<double> simple_transfers(double load, const std::vector<double>& neighbours, bool residue_equal) {
  std::vector<double> out(neighbours.size(), 0.0);
  const double lighter_than = residue_equal ? load - kNegligibleTransfer * load : load;
  int vmin = -1, vmax = -1;
  for (int j = 0; j < static_cast<int>(neighbours.size()); ++j) {
    if (!(neighbours[j] < lighter_than)) continue;
    if (vmin < 0 || neighbours[j] < neighbours[vmin]) vmin = j;
    if (vmax < 0 || neighbours[j] > neighbours[vmax]) vmax = j;
  }
  if (vmin < 0) return out;
  out[vmin] = std::min((load - neighbours[vmin]) / 2.0, load - neighbours[vmax]);
  return out;
}

}  // namespace hetlb::diffusion
