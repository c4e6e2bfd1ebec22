// The time imbalance of a load distribution on unlike nodes: how much later than a perfectly
// time-balanced distribution the slowest node finishes its iteration,
//   I = max_i (x_i / s_i) / (sum_i x_i / sum_i s_i),
// x_i the load and s_i the speed of node i. I = 1 when every x_i / s_i is equal (speed-proportional
// shares), and with equal speeds I = max load / average load.
#pragma once
#include <vector>

namespace hetlb::diffusion {

// 1 when the total load is 0 (nothing to wait for). Speeds must be > 0, loads >= 0, same length.
double time_imbalance(const std::vector<double>& loads, const std::vector<double>& speeds);

}  // namespace hetlb::diffusion
