// Centralised convergence detection (Couturier & Giersch, "End of the simulation").
#include <cmath>
#include <limits>

#include "hetlb/diffusion/convergence.hpp"

namespace hetlb::diffusion {

ConvergenceTracker::ConvergenceTracker(int nodes, double average, long iterations, double tolerance)
    : average_(average), tolerance_(tolerance), iterations_(iterations < 1 ? 1 : iterations),
      streak_(nodes, 0), streak_start_(nodes, 0.0) {}

void ConvergenceTracker::record(int node, double load, double date) {
  const bool was = converged(node);
  const bool in_band_before = streak_[node] > 0;
  if (in_band(load)) {
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

bool ConvergenceTracker::in_band(double load) const { return std::abs(load - average_) <= tolerance_ * average_; }

}  // namespace hetlb::diffusion
