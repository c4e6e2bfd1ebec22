// A rank's own speed, measured: the load it processed per second of computing (docs/runtime.md,
// "Speeds"). Three stages, all a few floating-point operations per iteration:
//  - start (robust): while fewer than W samples were taken (W = window, 3 by default) the estimate is
//    the median of the samples so far, the lower middle one of an even count; at the W-th sample it is
//    their median. One wrong first sample (a first frame of nearly empty work, 30x too fast) is
//    therefore forgotten at the second sample if too high and at the third if too low.
//  - smoothing: after an iteration that processed load x in d seconds,
//        s <- s + a (y - s),   y = clamp(x / d, s / 2, 2 s),   a = 1 - exp(-1 / N),
//    N the time constant in iterations (3 by default): a change within a factor 2 is followed to 63%
//    after N iterations and 95% after 3N; one iteration stretched by preemption moves s by 14% at most.
//  - persistent change: C consecutive samples beyond the clip on the same side (C = confirm, 2 by
//    default; 0: never; the clip of the estimate before the first of them) are a new speed, not
//    preemption (one stretched iteration is not): s is reset to their median (a 3x slowdown is followed
//    after C iterations instead of about 12).
// Iterations without load or without measurable time (d <= 0) leave s unchanged. The speed the rank
// uses and reports, u, follows s with a hysteresis h (10% by default): u <- s when |s - u| > h u, and
// at every stage-1 sample and reset. Measurement noise below h then leaves the decisions and the
// convergence targets alone (they would otherwise chase it), while a real change of more than h is
// followed. The median start is Tukey's median smoothing applied once to the first window.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace hetlb::mpi::detail {

class SpeedEstimator {
 public:
  explicit SpeedEstimator(double time_constant_iterations = 3, double hysteresis = 0.1, long window = 3,
                          long confirm = 2)
      : weight_(1 - std::exp(-1 / time_constant_iterations)),
        hysteresis_(hysteresis),
        window_(std::max(1L, window)),
        confirm_(std::max(0L, confirm)) {}

  void record(double load, double seconds) {
    if (!(load > 0) || !(seconds > 0)) return;
    const double x = load / seconds;
    if (!std::isfinite(x) || !(x > 0)) return;
    if (static_cast<long>(start_.size()) < window_) {  // stage 1: the median of the first samples
      start_.push_back(x);
      speed_ = used_ = lower_median(start_);
      return;
    }
    // Beyond the clip of the estimate before the run began (the run's own samples move the estimate).
    int side = side_of(x, run_.empty() ? speed_ : run_ref_);
    if (!run_.empty() && side != run_side_) {
      run_.clear();
      side = side_of(x, speed_);
    }
    if (side != 0 && confirm_ > 0) {
      if (run_.empty()) {
        run_ref_ = speed_;
        run_side_ = side;
      }
      run_.push_back(x);
      if (static_cast<long>(run_.size()) >= confirm_) {  // stage 3: a persistent change, taken as a whole
        speed_ = used_ = lower_median(run_);
        run_.clear();
        return;
      }
    }
    speed_ += weight_ * (std::clamp(x, speed_ / 2, speed_ * 2) - speed_);  // stage 2
    if (std::abs(speed_ - used_) > hysteresis_ * used_) used_ = speed_;
  }
  bool known() const { return speed_ > 0; }
  // The window of first samples is full: the speed is trusted (convergence may be declared on it).
  bool trusted() const { return static_cast<long>(start_.size()) >= window_; }
  double estimate() const { return speed_; }  // s; 0 before the first measurement
  double speed() const { return used_; }      // u; 0 before the first measurement

 private:
  static int side_of(double x, double ref) { return x > 2 * ref ? 1 : x < ref / 2 ? -1 : 0; }
  static double lower_median(std::vector<double> v) {
    const auto mid = v.begin() + static_cast<long>((v.size() - 1) / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  }

  double weight_, hysteresis_;
  long window_, confirm_;
  std::vector<double> start_;  // the first `window_` samples
  std::vector<double> run_;    // consecutive samples beyond the clip, on side run_side_
  int run_side_ = 0;
  double run_ref_ = 0;  // the estimate when the run began
  double speed_ = 0, used_ = 0;
};

}  // namespace hetlb::mpi::detail
