// Final load spread and the conservation check ending every run.
#include <cmath>

#include <fmt/format.h>

#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {

double total_load(const std::vector<double>& loads) {
  double sum = 0, c = 0;
  for (double x : loads) {
    const double t = sum + x;
    c += std::abs(sum) >= std::abs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  return std::isfinite(sum) ? sum + c : sum;  // past the largest double: +inf, not the NaN of inf - inf
}

double load_spread_percent(const std::vector<double>& loads) {
  if (loads.empty()) return 0;
  const double mean = total_load(loads) / static_cast<double>(loads.size());
  if (mean == 0) return 0;
  double var = 0;
  for (double x : loads) var += (x - mean) * (x - mean);
  return 100.0 * std::sqrt(var / static_cast<double>(loads.size())) / mean;
}

void check_conservation(double initial, double final, bool integer) {
  const bool ok = integer ? final == initial : std::abs(final - initial) <= 1e-9 * std::abs(initial);
  if (!ok)
    throw Error(fmt::format("conservation violated: final total load {:.17g} != initial {:.17g}; expected {}",
                            final, initial, integer ? "exact equality (integer load)" : "a relative 1e-9"));
}

}  // namespace hetlb::diffusion
