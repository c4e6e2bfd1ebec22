// "makhoul": Algorithm 2 of Bahi, Giersch & Makhoul (2008), as summarised by Couturier & Giersch,
// Section 3. Neighbours are taken from the least to the most loaded; with N neighbours, neighbour j
// is offered (x_i - x_j) / (N + 1), the difference computed before any sending, as long as the node
// stays at least as loaded as that neighbour after the transfer (x_i' - s >= x_j + s); the first
// neighbour that fails this, or is not less loaded, stops the loop.
#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

std::vector<double> makhoul_transfers(double load, const std::vector<double>& neighbours) {
  std::vector<double> out(neighbours.size(), 0.0);
  const double parts = static_cast<double>(neighbours.size()) + 1.0;
  double remaining = load;
  for (int j : order_by_load(neighbours)) {
    const double diff = load - neighbours[j];
    if (!(diff > 0)) break;
    const double s = diff / parts;
    if (remaining - s < neighbours[j] + s) break;
    out[j] = s;
    remaining -= s;
  }
  return out;
}

}  // namespace hetlb::diffusion
