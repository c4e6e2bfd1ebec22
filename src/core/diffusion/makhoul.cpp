// "makhoul": Algorithm 2 of Bahi, Giersch & Makhoul (2008), as summarised by Couturier & Giersch,
// Section 3. Neighbours are taken from the least to the most loaded; with N neighbours, neighbour j
// is offered (x_i - x_j) / (N + 1), the difference computed before any sending, as long as the node
// stays at least as loaded as that neighbour after the transfer (x_i' - s >= x_j + s); the first
// neighbour that fails this, or is not less loaded, stops the loop.
//
// Time view: with t_j = x_j / r_j (r_j: j's speed relative to the node's), the difference is taken in
// time, t_i - t_j, its (N + 1)-th part is converted to load with the receiver's speed,
// s = (t_i - t_j) r_j / (N + 1), and the stop test compares dates: x_i' - s >= t_j + s / r_j.
#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

std::vector<double> makhoul_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& speeds) {
  std::vector<double> out(neighbours.size(), 0.0);
  const double parts = static_cast<double>(neighbours.size()) + 1.0;
  std::vector<double> dates;
  if (!speeds.empty()) {
    dates.resize(neighbours.size());
    for (std::size_t j = 0; j < neighbours.size(); ++j) dates[j] = time_of(neighbours, speeds, j);
  }
  const std::vector<double>& t = speeds.empty() ? neighbours : dates;
  double remaining = load;
  for (int j : order_by_load(t)) {
    const double diff = load - t[j];
    if (!(diff > 0)) break;
    const double r = speed_of(speeds, j);
    const double s = speeds.empty() ? diff / parts : diff * r / parts;
    if (remaining - s < t[j] + (speeds.empty() ? s : s / r)) break;
    out[j] = s;
    remaining -= s;
  }
  return out;
}

}  // namespace hetlb::diffusion
