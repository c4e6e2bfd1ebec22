#include "hetlb/model/calibration.hpp"

#include <algorithm>
#include <cmath>

#include "hetlb/error.hpp"

namespace hetlb {

void SampleStats::add(double x) {
  ++n_;
  const double d = x - mean_;
  mean_ += d / static_cast<double>(n_);
  m2_ += d * (x - mean_);
}

double SampleStats::stddev() const { return n_ < 2 ? 0.0 : std::sqrt(m2_ / static_cast<double>(n_ - 1)); }

double SampleStats::half_width95() const {
  if (n_ < 2) return INFINITY;
  // Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom, then the normal's.
  static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                             2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                             2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  const std::size_t dof = n_ - 1;
  const double q = dof <= 30 ? t[dof - 1] : 1.960;
  return q * stddev() / std::sqrt(static_cast<double>(n_));
}

bool SampleStats::tight(double relative, std::size_t min_samples) const {
  return n_ >= std::max<std::size_t>(2, min_samples) && half_width95() <= relative * std::abs(mean_);
}

AffineFit fit_affine(const std::vector<std::pair<double, double>>& pts) {
  if (pts.empty()) throw Error("calibration: no measurement to fit");
  double sx = 0, st = 0;
  for (const auto& [x, t] : pts) {
    if (!(x > 0) || !(t >= 0) || !std::isfinite(t)) throw Error("calibration: measurements need x > 0 and times >= 0");
    sx += x;
    st += t;
  }
  const double n = static_cast<double>(pts.size());
  const double mx = sx / n, mt = st / n;
  double sxx = 0, sxt = 0, stt = 0, x2 = 0, xt = 0;
  for (const auto& [x, t] : pts) {
    sxx += (x - mx) * (x - mx);
    sxt += (x - mx) * (t - mt);
    stt += (t - mt) * (t - mt);
    x2 += x * x;
    xt += x * t;
  }
  AffineFit f;
  f.per_item = sxx > 0 ? sxt / sxx : 0.0;
  f.latency = mt - f.per_item * mx;
  if (f.latency < 0 || sxx == 0) {  // through the origin
    f.latency = 0;
    f.per_item = xt / x2;
  }
  if (f.per_item < 0) {  // times decrease with x: only a constant remains
    f.per_item = 0;
    f.latency = mt;
  }
  double sse = 0;
  for (const auto& [x, t] : pts) {
    const double e = t - (f.latency + f.per_item * x);
    sse += e * e;
  }
  f.r2 = stt > 0 ? 1.0 - sse / stt : 1.0;
  return f;
}

CostFunction table_from_points(std::vector<std::pair<double, double>> pts) {
  if (pts.empty()) throw Error("calibration: no measurement for a table");
  std::sort(pts.begin(), pts.end());
  std::vector<std::pair<double, double>> out;
  std::size_t same = 0;
  for (const auto& [x, t] : pts) {
    if (!(x > 0) || !(t >= 0)) throw Error("calibration: measurements need x > 0 and times >= 0");
    if (!out.empty() && out.back().first == x) {
      ++same;
      out.back().second += (t - out.back().second) / static_cast<double>(same + 1);
    } else {
      out.emplace_back(x, t);
      same = 0;
    }
  }
  for (std::size_t k = 1; k < out.size(); ++k) out[k].second = std::max(out[k].second, out[k - 1].second);
  return CostFunction::table(std::move(out));
}

bool grows_with_items(const CostFunction& cost, double smallest, double largest) {
  // One size measures no growth: the fitted cost per item says it.
  return largest > smallest ? cost.eval(largest) > cost.eval(smallest) : cost.asymptotic_slope() > 0;
}

}  // namespace hetlb
