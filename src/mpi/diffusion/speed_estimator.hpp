// A rank's own speed, measured: the load it processed per second of computing, smoothed exponentially
// over its computing iterations (docs/runtime.md, "Speeds"). After an iteration that processed load x
// in d seconds,
//     s <- s + a (x / d - s),   a = 1 - exp(-1 / N),
// N the time constant in iterations (3 by default): a step change of the rank's speed is followed to
// 63% after N iterations and 95% after 3N. The first measurement sets s. Iterations without load or
// without measurable time (d <= 0) leave s unchanged. A few floating-point operations per iteration.
#pragma once
#include <cmath>

namespace hetlb::mpi::detail {

class SpeedEstimator {
 public:
  explicit SpeedEstimator(double time_constant_iterations = 3)
      : weight_(1 - std::exp(-1 / time_constant_iterations)) {}

  void record(double load, double seconds) {
    if (!(load > 0) || !(seconds > 0)) return;
    const double x = load / seconds;
    if (!std::isfinite(x)) return;
    speed_ = speed_ > 0 ? speed_ + weight_ * (x - speed_) : x;
  }
  bool known() const { return speed_ > 0; }
  double speed() const { return speed_; }  // 0 before the first measurement

 private:
  double weight_;
  double speed_ = 0;
};

}  // namespace hetlb::mpi::detail
