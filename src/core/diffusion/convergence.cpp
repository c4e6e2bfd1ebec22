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
  if (std::abs(load - average_) <= tolerance_ * average_) {
    if (streak_[node] == 0) streak_start_[node] = date;
    ++streak_[node];
  } else {
    streak_[node] = 0;
  }
  const bool is = converged(node);
  converged_count_ += static_cast<int>(is) - static_cast<int>(was);
}

bool ConvergenceTracker::converged(int node) const { return streak_[node] >= iterations_; }

double ConvergenceTracker::convergence_date(int node) const {
  return converged(node) ? streak_start_[node] : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace hetlb::diffusion
