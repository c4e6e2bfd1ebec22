// Convergence: K consecutive iterations within 1% of the average; leaving the band resets.
#include <gtest/gtest.h>

#include <cmath>

#include "hetlb/diffusion/convergence.hpp"

namespace hetlb::diffusion {
namespace {

TEST(Convergence, NeedsKConsecutiveIterations) {
  ConvergenceTracker t(2, 1000, 3);
  t.record(0, 1005, 1);
  t.record(0, 995, 2);
  EXPECT_FALSE(t.converged(0));
  t.record(0, 1011, 3);  // out of the 1% band: streak restarts
  t.record(0, 1010, 4);
  t.record(0, 990, 5);
  t.record(0, 1000, 6);
  EXPECT_TRUE(t.converged(0));
  EXPECT_EQ(t.convergence_date(0), 4);
  EXPECT_TRUE(std::isnan(t.convergence_date(1)));
  EXPECT_EQ(t.converged_count(), 1);
  EXPECT_FALSE(t.all_converged());
  for (int i = 0; i < 3; ++i) t.record(1, 1000, 10 + i);
  EXPECT_TRUE(t.all_converged());
  t.record(1, 0, 20);
  EXPECT_FALSE(t.all_converged());
  EXPECT_EQ(t.converged_count(), 1);
}

TEST(Convergence, CountsNodesInTheBandAndExtendsStreaks) {
  ConvergenceTracker t(3, 1000, 5);
  t.record(0, 1000, 1);
  t.record(1, 1000, 1);
  t.record(2, 500, 1);
  EXPECT_EQ(t.in_band_count(), 2);
  t.record(1, 2000, 2);
  EXPECT_EQ(t.in_band_count(), 1);
  t.extend(0, 4);  // 1 + 4 records: converged, date of the streak's first record
  EXPECT_TRUE(t.converged(0));
  EXPECT_EQ(t.convergence_date(0), 1);
  EXPECT_EQ(t.streak(0), 5);
  t.extend(2, 10);  // not in the band: nothing to extend
  EXPECT_FALSE(t.converged(2));
  EXPECT_EQ(t.converged_count(), 1);
}

TEST(Convergence, InBandIsWhatRecordCounts) {
  ConvergenceTracker t(1, 100, 1);  // band: 99..101
  for (double load : {98.0, 98.999, 99.0, 100.0, 101.0, 101.001, 102.0}) {
    ConvergenceTracker fresh(1, 100, 1);
    fresh.record(0, load, 0);
    EXPECT_EQ(t.in_band(load), fresh.converged(0)) << load;
  }
  EXPECT_TRUE(t.in_band(99.0));
  EXPECT_FALSE(t.in_band(101.5));
}

}  // namespace
}  // namespace hetlb::diffusion
