// A processor's time to compute or receive x items (RR-4770, Section 3.1: Tcomp(i,x), Tcomm(i,x)).
// T(0) = 0 always; for x > 0 the function is linear, affine (latency + per_item * x) or a table of
// measurements interpolated piecewise-linearly through (0,0) and extrapolated with the last slope
// (never below zero).
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace hetlb {

using Count = std::int64_t;  // item counts are 64-bit everywhere
inline constexpr Count kMaxCount = std::numeric_limits<Count>::max() / 4;

class CostFunction {
 public:
  enum class Kind { Linear, Affine, Table };

  CostFunction() = default;  // the zero function
  static CostFunction linear(double per_item);
  static CostFunction affine(double latency, double per_item);
  // points: x strictly increasing and > 0, times >= 0 (monotonicity is not required here; see
  // is_non_decreasing()). Throws hetlb::Error on a malformed table.
  static CostFunction table(std::vector<std::pair<double, double>> points);

  Kind kind() const { return kind_; }
  double latency() const { return latency_; }
  double per_item() const { return per_item_; }
  const std::vector<std::pair<double, double>>& points() const { return points_; }

  double operator()(Count x) const { return eval(static_cast<double>(x)); }
  // Rational argument (used by the linear-programming relaxations); T(0) = 0.
  double eval(double x) const;

  bool is_zero() const;
  bool is_linear() const { return kind_ == Kind::Linear || (kind_ == Kind::Affine && latency_ == 0.0); }
  bool is_affine() const { return kind_ != Kind::Table; }
  bool is_non_decreasing() const;
  // Slope for large x: per_item, or the last segment's slope of a table.
  double asymptotic_slope() const;
  // inf over x > 0 of T(x)/x: T(x) >= lower_slope() * x for every x >= 0 (a linear lower bound).
  double lower_slope() const;

  std::string describe() const;

 private:
  Kind kind_ = Kind::Linear;
  double latency_ = 0.0;
  double per_item_ = 0.0;
  std::vector<std::pair<double, double>> points_;
};

// Largest x in [0, limit] with (start + f(x)) + g(x) <= deadline, for non-decreasing f and g; -1 if
// even x = 0 does not fit. The test is evaluated exactly as the scatter evaluator does (start + Tcomm
// then + Tcomp), so a count returned here never finishes after the deadline once evaluated.
Count max_items_within(const CostFunction& f, const CostFunction& g, double start, double deadline, Count limit);

}  // namespace hetlb
