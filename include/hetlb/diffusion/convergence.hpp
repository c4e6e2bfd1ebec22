// Convergence detection of the paper (Section "End of the simulation"), centralised as in the
// original simulator: a node has converged while its load stayed within `tolerance` (1%) of the
// average for `iterations` consecutive computing iterations; the run ends when all have converged.
// Balancing by time, the average becomes each node's speed-proportional share (target_shares).
#pragma once
#include <vector>

namespace hetlb::diffusion {

// Speed-proportional shares of `total`: total * s_i / sum(s), computed in that order, so that equal
// speeds give total / n exactly. Each speed must be finite and > 0 (hetlb::Error otherwise).
std::vector<double> target_shares(double total, const std::vector<double>& speeds);

class ConvergenceTracker {
 public:
  // Every node's target is `average` (balance by load).
  ConvergenceTracker(int nodes, double average, long iterations, double tolerance = 0.01);
  // One target per node (balance by time: target_shares).
  ConvergenceTracker(std::vector<double> targets, long iterations, double tolerance = 0.01);

  // One computing iteration of `node`, ending at `date` with `load`.
  void record(int node, double load, double date);

  // Adds `records` more iterations in the band to `node`'s current streak (which must be running):
  // the end of a streak computed instead of simulated.
  void extend(int node, long records);

  bool all_converged() const { return converged_count_ == static_cast<int>(streak_.size()); }
  int converged_count() const { return converged_count_; }
  int in_band_count() const { return in_band_count_; }
  long streak(int node) const { return streak_[node]; }
  long iterations() const { return iterations_; }
  bool converged(int node) const;
  // Whether `load` is within the tolerance of `node`'s target (what record() counts as in the band).
  bool in_band(int node, double load) const;
  // The same against the first node's target: the average, when every target is equal.
  bool in_band(double load) const { return in_band(0, load); }
  double target(int node) const { return targets_[node]; }
  // Date of the first iteration of the streak that made `node` converge; NaN when not converged.
  double convergence_date(int node) const;

 private:
  std::vector<double> targets_;
  double tolerance_;
  long iterations_;
  std::vector<long> streak_;
  std::vector<double> streak_start_;
  int converged_count_ = 0, in_band_count_ = 0;
};

}  // namespace hetlb::diffusion
