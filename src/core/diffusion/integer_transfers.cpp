// Integer load (Couturier & Giersch evaluate every strategy on "integer load" too; DASUD, Cortés et
// al. 2002, is the reference for integer diffusion). Rules:
//  1. each real transfer is rounded down (a tolerance of 1e-9 absorbs floating error on exact
//     integers), so the sum never exceeds what the real rule gave away;
//  2. if every transfer rounded to 0 while the node holds at least 2 units more than its least
//     loaded neighbour (lowest index on ties), that neighbour gets 1 unit: DASUD's unit step, which
//     keeps progress until every edge differs by at most 1 unit, and respects the ping-pong
//     condition (x_i - 1 >= x_min + 1).
#include <cmath>

#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

std::vector<double> integer_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& real_transfers) {
  std::vector<double> out(real_transfers.size(), 0.0);
  bool any = false;
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j] = std::max(0.0, std::floor(real_transfers[j] + 1e-9));
    any = any || out[j] > 0;
  }
  if (any || neighbours.empty()) return out;
  const int least = order_by_load(neighbours).front();
  if (load - neighbours[least] >= 2.0) out[least] = 1.0;
  return out;
}

}  // namespace hetlb::diffusion
