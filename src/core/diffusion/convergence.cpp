// Centralised convergence detection (Couturier & Giersch, "End of the simulation").
#include <cmath>
#include <limits>
#include <utility>

#include "hetlb/diffusion/convergence.hpp"
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {

std::vector<double> target_shares(double total, const std::vector<double>& speeds) {
  double sum = 0;
  for (double s : speeds) {
    check_speed(s, "speed");
    sum += s;
  }
  if (!std::isfinite(sum)) throw Error("speeds: their sum overflows; expected relative speeds");
  std::vector<double> out(speeds.size());
  for (std::size_t i = 0; i < speeds.size(); ++i) out[i] = total * speeds[i] / sum;
  return out;
}

ConvergenceTracker::ConvergenceTracker(int nodes, double average, long iterations, double tolerance)
    : ConvergenceTracker(std::vector<double>(nodes < 0 ? 0 : nodes, average), iterations, tolerance) {}

ConvergenceTracker::ConvergenceTracker(std::vector<double> targets, long iterations, double tolerance)
    : targets_(std::move(targets)), tolerance_(tolerance), iterations_(iterations < 1 ? 1 : iterations),
      streak_(targets_.size(), 0), streak_start_(targets_.size(), 0.0) {}

void ConvergenceTracker::record(int node, double load, double date) {
  const bool was = converged(node);
  const bool in_band_before = streak_[node] > 0;
  if (in_band(node, load)) {
    if (streak_[node] == 0) streak_start_[node] = date;
    ++streak_[node];
  } else {
    streak_[node] = 0;
  }
  in_band_count_ += static_cast<int>(streak_[node] > 0) - static_cast<int>(in_band_before);
  const bool is = converged(node);
  converged_count_ += static_cast<int>(is) - static_cast<int>(was);
}

void ConvergenceTracker::extend(int node, long records) {
  if (streak_[node] == 0 || records <= 0) return;
  const bool was = converged(node);
  streak_[node] += records;
  converged_count_ += static_cast<int>(converged(node)) - static_cast<int>(was);
}

bool ConvergenceTracker::converged(int node) const { return streak_[node] >= iterations_; }

double ConvergenceTracker::convergence_date(int node) const {
  return converged(node) ? streak_start_[node] : std::numeric_limits<double>::quiet_NaN();
}

bool ConvergenceTracker::in_band(int node, double load) const {
  const double target = targets_.empty() ? 0.0 : targets_[node];
  return std::abs(load - target) <= tolerance_ * target;
}

}  // namespace hetlb::diffusion
