// A rank's own speed, measured: the load it processed per second of computing, smoothed exponentially
// over its computing iterations (docs/runtime.md, "Speeds"). After an iteration that processed load x
// in d seconds,
//     s <- s + a (x / d - s),   a = 1 - exp(-1 / N),
// N the time constant in iterations (3 by default): a step change of the rank's speed is followed to
// 63% after N iterations and 95% after 3N. The first measurement sets s; later ones are clipped to
// [s / 2, 2 s] first (an iteration stretched by preemption moves s by 14% at most, a change by 4x is
// followed within about 3N iterations). Iterations without load or
// without measurable time (d <= 0) leave s unchanged. A few floating-point operations per iteration.
// The speed the rank uses and reports, u, follows s with a hysteresis h (10% by default): u <- s when
// |s - u| > h u. Measurement noise below h then leaves the decisions and the convergence targets
// alone (they would otherwise chase it), while a real change of more than h is followed.
#pragma once
#include <algorithm>
#include <cmath>

namespace hetlb::mpi::detail {

class SpeedEstimator {
 public:
  explicit SpeedEstimator(double time_constant_iterations = 3, double hysteresis = 0.1)
      : weight_(1 - std::exp(-1 / time_constant_iterations)), hysteresis_(hysteresis) {}

  void record(double load, double seconds) {
    if (!(load > 0) || !(seconds > 0)) return;
    double x = load / seconds;
    if (!std::isfinite(x)) return;
    if (speed_ > 0) x = std::clamp(x, speed_ / 2, speed_ * 2);  // one preempted iteration is not a new speed
    speed_ = speed_ > 0 ? speed_ + weight_ * (x - speed_) : x;
    if (!(used_ > 0) || std::abs(speed_ - used_) > hysteresis_ * used_) used_ = speed_;
  }
  bool known() const { return speed_ > 0; }
  double estimate() const { return speed_; }  // s; 0 before the first measurement
  double speed() const { return used_; }      // u; 0 before the first measurement

 private:
  double weight_, hysteresis_;
  double speed_ = 0, used_ = 0;
};

}  // namespace hetlb::mpi::detail
