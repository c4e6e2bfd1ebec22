// From measurements to cost models (the calibration of RR-4770's Tcomp and Tcomm, Section 5.1:
// "the values come from a series of benchmarks"): repeated timings summarized until their
// confidence interval is tight, an affine least-squares fit, and the measured points as a table.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "hetlb/model/cost_function.hpp"

namespace hetlb {

// Running mean and variance of repeated timings of one point (Welford's method).
class SampleStats {
 public:
  void add(double sample);
  std::size_t count() const { return n_; }
  double mean() const { return mean_; }
  double stddev() const;
  // Half-width of the 95% confidence interval of the mean (Student's t).
  double half_width95() const;
  // True once at least `min_samples` were taken and the interval is within `relative` of the mean.
  bool tight(double relative = 0.05, std::size_t min_samples = 3) const;

 private:
  std::size_t n_ = 0;
  double mean_ = 0, m2_ = 0;
};

struct AffineFit {
  double latency = 0;   // >= 0
  double per_item = 0;  // >= 0
  double r2 = 0;        // coefficient of determination of the fit
  CostFunction cost() const { return latency > 0 ? CostFunction::affine(latency, per_item) : CostFunction::linear(per_item); }
};

// Least squares t = latency + per_item * x over points (x > 0), constrained to non-negative
// coefficients (refit through the origin when the intercept would be negative).
AffineFit fit_affine(const std::vector<std::pair<double, double>>& points);

// The measured points as a `table` cost: sorted by x, equal x averaged, times made non-decreasing.
CostFunction table_from_points(std::vector<std::pair<double, double>> points);

// Whether a fitted cost grows from `smallest` to `largest` items. A kernel too fast for the measured
// sizes fits a cost per item of 0 (or a flat table): a plan would take its items as free. With one
// size (smallest == largest), whether the fitted cost per item is above 0.
bool grows_with_items(const CostFunction& cost, double smallest, double largest);

}  // namespace hetlb
