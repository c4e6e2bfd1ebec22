// Initial distributions: totals, determinism, files.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numeric>

#include "hetlb/diffusion/initial_load.hpp"
#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

TEST(InitialLoad, SingleIsAllOnNodeZero) {
  const auto x = make_initial_load("single", 4, 1000, true, 1);
  EXPECT_EQ(x, (std::vector<double>{4000, 0, 0, 0}));
}

TEST(InitialLoad, RandomIntegerSumsExactlyAndIsSeeded) {
  const auto a = make_initial_load("random", 37, 1000, true, 7);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0.0), 37000);
  for (double v : a) EXPECT_EQ(v, std::floor(v));
  EXPECT_EQ(a, make_initial_load("random", 37, 1000, true, 7));
  EXPECT_NE(a, make_initial_load("random", 37, 1000, true, 8));
}

TEST(InitialLoad, RandomRealSumsToTheTotal) {
  const auto a = make_initial_load("random", 64, 1000, false, 3);
  EXPECT_NEAR(total_load(a), 64000, 1e-9 * 64000);
  EXPECT_GT(load_spread_percent(a), 10);
}

TEST(InitialLoad, FromFile) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/diffusion_initial.txt";
  std::ofstream(path) << "# loads\n10 20\n30\n";
  EXPECT_EQ(make_initial_load(path, 3, 1000, true, 1), (std::vector<double>{10, 20, 30}));
  EXPECT_THROW(make_initial_load(path, 4, 1000, true, 1), Error);
  std::ofstream(path) << "1.5 2\n";
  EXPECT_THROW(make_initial_load(path, 2, 1000, true, 1), Error);
  EXPECT_EQ(make_initial_load(path, 2, 1000, false, 1), (std::vector<double>{1.5, 2}));
  std::ofstream(path) << "1 -2\n";
  EXPECT_THROW(make_initial_load(path, 2, 1000, false, 1), Error);
  EXPECT_THROW(make_initial_load("single", 4, 2.5, true, 1), Error);
}

TEST(Metrics, ConservationAndSpread) {
  EXPECT_NO_THROW(check_conservation(1000, 1000, true));
  EXPECT_THROW(check_conservation(1000, 999, true), Error);
  EXPECT_NO_THROW(check_conservation(1000, 1000 + 1e-7, false));
  EXPECT_THROW(check_conservation(1000, 1000 + 1e-5, false), Error);
  EXPECT_NEAR(load_spread_percent({900, 1100}), 10, 1e-12);
  EXPECT_EQ(load_spread_percent({5, 5, 5}), 0);
}

}  // namespace
}  // namespace hetlb::diffusion

#include "hetlb/diffusion/balancing_phase.hpp"

namespace hetlb::diffusion {
namespace {

TEST(BalancingPhase, AlignedIsZeroStaggeredSpreadsOverThePeriod) {
  EXPECT_EQ(balancing_phases(BalancingPhase::aligned, 5, 7), std::vector<double>(5, 0.0));
  const auto p = balancing_phases(BalancingPhase::staggered, 1000, 7);
  ASSERT_EQ(p.size(), 1000u);
  int low = 0;
  for (double x : p) {
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
    low += x < 0.5;
  }
  EXPECT_GT(low, 430);  // uniform: about half in each half of the period
  EXPECT_LT(low, 570);
  EXPECT_EQ(p, balancing_phases(BalancingPhase::staggered, 1000, 7));  // deterministic
  EXPECT_NE(p, balancing_phases(BalancingPhase::staggered, 1000, 8));
  EXPECT_EQ(parse_balancing_phase("staggered"), BalancingPhase::staggered);
  EXPECT_THROW(parse_balancing_phase("random"), Error);
}

}  // namespace
}  // namespace hetlb::diffusion
