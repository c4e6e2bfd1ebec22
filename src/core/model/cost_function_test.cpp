// Cost models of Section 3.1: T(0) = 0, linear, affine, tables; inversion used by `exact`.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/model/cost_function.hpp"

namespace hetlb {

TEST(CostFunction, Evaluation) {
  EXPECT_DOUBLE_EQ(CostFunction::linear(2)(Count{3}), 6);
  EXPECT_DOUBLE_EQ(CostFunction::affine(1, 2)(Count{0}), 0);  // T(0) = 0 even with a latency
  EXPECT_DOUBLE_EQ(CostFunction::affine(1, 2)(Count{3}), 7);
  const CostFunction t = CostFunction::table({{10, 0.1}, {100, 1.1}, {1000, 12.0}});
  EXPECT_DOUBLE_EQ(t(Count{0}), 0);
  EXPECT_DOUBLE_EQ(t(Count{5}), 0.05);          // through (0, 0)
  EXPECT_DOUBLE_EQ(t(Count{100}), 1.1);         // on a point
  EXPECT_NEAR(t(Count{55}), 0.6, 1e-12);        // interpolated
  EXPECT_NEAR(t(Count{2000}), 12.0 + 10.9 / 900 * 1000, 1e-9);  // last slope
  EXPECT_NEAR(t.asymptotic_slope(), 10.9 / 900, 1e-15);
  EXPECT_NEAR(t.lower_slope(), 0.01, 1e-15);
  EXPECT_TRUE(t.is_non_decreasing());
  EXPECT_FALSE(CostFunction::table({{1, 2}, {2, 1}}).is_non_decreasing());
  // A decreasing last step extrapolates down to zero, never below.
  const CostFunction down = CostFunction::table({{1, 3}, {2, 1}});
  EXPECT_DOUBLE_EQ(down(Count{3}), 0.0);
  EXPECT_DOUBLE_EQ(down(Count{10}), 0.0);
  EXPECT_DOUBLE_EQ(down.lower_slope(), 0.0);
}

TEST(CostFunction, MalformedTables) {
  EXPECT_THROW(CostFunction::table({}), Error);
  EXPECT_THROW(CostFunction::table({{2, 1}, {2, 3}}), Error);
  EXPECT_THROW(CostFunction::table({{0, 1}}), Error);
  EXPECT_THROW(CostFunction::table({{1, -1}}), Error);
}

// lower_slope() is a linear minorant; max_items_within agrees with a linear scan.
RC_GTEST_PROP(CostFunction, MinorantAndInversion, ()) {
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 20)));
  std::vector<std::pair<double, double>> pts;
  double x = 0, t = 0;
  for (int v : raw) {
    x += 1 + v % 4;
    t += v / 4.0;
    pts.emplace_back(x, t);
  }
  const CostFunction f = CostFunction::table(pts);
  const CostFunction g = CostFunction::affine(*rc::gen::inRange(0, 4) / 2.0, *rc::gen::inRange(0, 6) / 4.0);
  for (Count k = 0; k < 60; ++k) RC_ASSERT(f(k) >= f.lower_slope() * static_cast<double>(k) - 1e-9);
  const double start = *rc::gen::inRange(0, 5) / 2.0, deadline = *rc::gen::inRange(0, 120) / 2.0;
  const Count limit = *rc::gen::inRange<Count>(0, 80);
  Count expect = -1;
  for (Count k = 0; k <= limit; ++k)
    if ((start + f(k)) + g(k) <= deadline) expect = k;
  RC_ASSERT(max_items_within(f, g, start, deadline, limit) == expect);
}

}  // namespace hetlb
