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
// Iterations without load or without measurable time (d <= 0) leave s unchanged.
// Noise: the samples' relative dispersion n, the mean absolute relative deviation of a sample from the
// estimate, each deviation at most 1 (the clip). The window gives the deviations of its samples from its
// median but the median's own and the largest (a wrong first sample does not count): W - 2 of them.
// Then each sample within the clip and outside a run gives |y / s - 1|, s the estimate before it. n is
// their mean while fewer than about 3N were counted, then an exponential mean of time constant 3N (a
// slower quantity than the speed): n <- n + max(1/k, b) (deviation - n), b = 1 - exp(-1 / (3 N)), k
// the count.
// The margin m, the speed's resolution (an excess within it may be noise), is h (the hysteresis, 10% by
// default) until 3 deviations were counted, then min(h, max(f, 2 n)), f its floor (1% by default): 2 n
// is about 4 standard errors of s (Gaussian samples of deviation sigma: n = 0.8 sigma, and s's
// standard error sqrt(a / (2 - a)) sigma = 0.4 sigma with N = 3), so noise rarely moves u. The
// speed the rank uses and reports, u, follows s with that margin: u <- s when |s - u| > m u, and at
// every stage-1 sample and reset. Measurement noise then leaves the decisions and the convergence
// targets alone (they would otherwise chase it), while a real change beyond it is followed; noise-free
// samples (a simulated platform, a dedicated machine) give a margin of f, not h, so the shares are met
// to f. f >= h: the fixed margin h. The median start is Tukey's median smoothing applied once to the
// first window.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace hetlb::mpi::detail {

class SpeedEstimator {
 public:
  explicit SpeedEstimator(double time_constant_iterations = 3, double hysteresis = 0.1, long window = 3,
                          long confirm = 2, double margin_floor = 0.01)
      : weight_(1 - std::exp(-1 / time_constant_iterations)),
        noise_weight_(1 - std::exp(-1 / (3 * time_constant_iterations))),
        hysteresis_(hysteresis),
        floor_(margin_floor),
        window_(std::max(1L, window)),
        confirm_(std::max(0L, confirm)) {}

  void record(double load, double seconds) {
    if (!(load > 0) || !(seconds > 0)) return;
    const double x = load / seconds;
    if (!std::isfinite(x) || !(x > 0)) return;
    if (static_cast<long>(start_.size()) < window_) {  // stage 1: the median of the first samples
      start_.push_back(x);
      speed_ = used_ = lower_median(start_);
      if (static_cast<long>(start_.size()) == window_) count_window_deviations();
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
    const double y = std::clamp(x, speed_ / 2, speed_ * 2);
    if (run_.empty()) count_deviation(std::abs(y / speed_ - 1));
    speed_ += weight_ * (y - speed_);  // stage 2
    if (std::abs(speed_ - used_) > margin() * used_) used_ = speed_;
  }
  bool known() const { return speed_ > 0; }
  // The window of first samples is full: the speed is trusted (convergence may be declared on it).
  bool trusted() const { return static_cast<long>(start_.size()) >= window_; }
  double estimate() const { return speed_; }  // s; 0 before the first measurement
  double speed() const { return used_; }      // u; 0 before the first measurement
  double noise() const { return noise_; }     // n; 0 before the first deviation
  // m, the speed's resolution: h before kTrustedDeviations deviations, then min(h, max(f, 2 n)).
  double margin() const {
    return deviations_ < kTrustedDeviations ? hysteresis_ : std::min(hysteresis_, std::max(floor_, 2 * noise_));
  }
  static constexpr long kTrustedDeviations = 3;

 private:
  static int side_of(double x, double ref) { return x > 2 * ref ? 1 : x < ref / 2 ? -1 : 0; }
  static double lower_median(std::vector<double> v) {
    const auto mid = v.begin() + static_cast<long>((v.size() - 1) / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  }
  void count_deviation(double d) {
    ++deviations_;
    noise_ += std::max(1 / static_cast<double>(deviations_), noise_weight_) * (std::min(1.0, d) - noise_);
  }
  // The window's deviations from its median, without the smallest (the median's own) and the largest.
  void count_window_deviations() {
    const double m = lower_median(start_);
    std::vector<double> d;
    for (double x : start_) d.push_back(std::abs(x / m - 1));
    std::sort(d.begin(), d.end());
    for (std::size_t i = 1; i + 1 < d.size(); ++i) count_deviation(d[i]);
  }

  double weight_, noise_weight_, hysteresis_, floor_;
  long window_, confirm_;
  std::vector<double> start_;  // the first `window_` samples
  std::vector<double> run_;    // consecutive samples beyond the clip, on side run_side_
  int run_side_ = 0;
  double run_ref_ = 0;  // the estimate when the run began
  double speed_ = 0, used_ = 0;
  double noise_ = 0;
  long deviations_ = 0;
};

}  // namespace hetlb::mpi::detail
