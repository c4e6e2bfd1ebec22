#include "hetlb/diffusion/time_imbalance.hpp"

#include <algorithm>

#include "hetlb/diffusion/metrics.hpp"

namespace hetlb::diffusion {

double time_imbalance(const std::vector<double>& loads, const std::vector<double>& speeds) {
  const double total = total_load(loads), speed = total_load(speeds);
  if (!(total > 0)) return 1.0;
  double slowest = 0;
  for (std::size_t i = 0; i < loads.size(); ++i) slowest = std::max(slowest, loads[i] / speeds[i]);
  return slowest / (total / speed);
}

}  // namespace hetlb::diffusion
