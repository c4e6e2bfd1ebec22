// Calibration arithmetic: confidence intervals, the constrained affine fit, tables from points.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <numeric>

#include "hetlb/error.hpp"
#include "hetlb/model/calibration.hpp"

namespace hetlb {

TEST(Calibration, SampleStatsAgainstDirectFormulas) {
  SampleStats s;
  const std::vector<double> v{1.0, 1.2, 0.9, 1.1, 1.05};
  for (double x : v) s.add(x);
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / 5;
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= 4;
  EXPECT_NEAR(s.mean(), mean, 1e-15);
  EXPECT_NEAR(s.stddev(), std::sqrt(var), 1e-12);
  EXPECT_NEAR(s.half_width95(), 2.776 * std::sqrt(var / 5), 1e-12);
  EXPECT_FALSE(s.tight(0.05));
  EXPECT_TRUE(s.tight(0.2));
  SampleStats one;
  one.add(3);
  EXPECT_FALSE(one.tight(1.0, 1));
}

// Exact affine data is recovered; noise-free data through the origin gives a linear model.
RC_GTEST_PROP(Calibration, FitRecoversAffineData, ()) {
  const double lat = *rc::gen::inRange(0, 1000) * 1e-6, slope = *rc::gen::inRange(1, 1000) * 1e-7;
  std::vector<std::pair<double, double>> pts;
  const int k = *rc::gen::inRange(2, 12);
  for (int i = 1; i <= k; ++i) pts.emplace_back(i * 137.0, lat + slope * i * 137.0);
  const AffineFit f = fit_affine(pts);
  RC_ASSERT(std::abs(f.latency - lat) <= 1e-9);
  RC_ASSERT(std::abs(f.per_item - slope) <= 1e-12);
  RC_ASSERT(f.r2 > 0.999999);
}

TEST(Calibration, FitStaysNonNegative) {
  // A negative intercept is refit through the origin.
  const AffineFit f = fit_affine({{10, 0.5}, {20, 2.0}, {30, 3.5}});
  EXPECT_EQ(f.latency, 0);
  EXPECT_NEAR(f.per_item, (10 * 0.5 + 20 * 2.0 + 30 * 3.5) / (100.0 + 400 + 900), 1e-12);
  const AffineFit g = fit_affine({{10, 2.0}, {20, 1.0}});
  EXPECT_EQ(g.per_item, 0);
  EXPECT_NEAR(g.latency, 1.5, 1e-12);
  EXPECT_THROW(fit_affine({}), Error);
  EXPECT_THROW(fit_affine({{0, 1}}), Error);
}

TEST(Calibration, TableFromPoints) {
  const CostFunction t = table_from_points({{100, 1.0}, {10, 0.2}, {100, 1.4}, {50, 1.3}});
  ASSERT_EQ(t.points().size(), 3u);
  EXPECT_DOUBLE_EQ(t.points()[0].second, 0.2);
  EXPECT_DOUBLE_EQ(t.points()[1].second, 1.3);
  EXPECT_DOUBLE_EQ(t.points()[2].second, 1.3);  // mean 1.2 raised to stay non-decreasing
  EXPECT_TRUE(t.is_non_decreasing());
}

TEST(Calibration, GrowsWithItemsFlagsAKernelTooFastForItsSizes) {
  // Times that fall with x (a kernel below the timer's noise) fit a cost per item of 0.
  const AffineFit falling = fit_affine({{1, 1e-3}, {10, 1e-4}});
  EXPECT_FALSE(grows_with_items(falling.cost(), 1, 10));
  EXPECT_FALSE(grows_with_items(table_from_points({{1, 1e-3}, {10, 1e-4}}), 1, 10));
  EXPECT_TRUE(grows_with_items(fit_affine({{1, 1e-4}, {10, 1e-3}}).cost(), 1, 10));
  EXPECT_TRUE(grows_with_items(table_from_points({{1, 1e-4}, {10, 1e-3}}), 1, 10));
  EXPECT_FALSE(grows_with_items(CostFunction::affine(2, 0), 1, 1000));
}

}  // namespace hetlb
