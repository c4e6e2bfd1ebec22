// The measured-speed estimator (speed_estimator.hpp): a step change is followed as stated (63% after
// N iterations, 95% after 3N; a 4x slowdown within 5% after 14), a preempted iteration moves it by at most
// 14%, noise below the hysteresis leaves the speed used alone.
#include "speed_estimator.hpp"

#include <gtest/gtest.h>

namespace hetlb::mpi::detail {
namespace {

TEST(SpeedEstimator, FirstSampleSetsTheSpeed) {
  SpeedEstimator e(3);
  EXPECT_FALSE(e.known());
  e.record(0, 1.0);  // no load: no sample
  e.record(10, 0.0);  // no time: no sample
  EXPECT_FALSE(e.known());
  e.record(100, 0.5);
  EXPECT_DOUBLE_EQ(e.speed(), 200);
}

TEST(SpeedEstimator, FollowsAStepWithinItsTimeConstant) {
  SpeedEstimator e(3, 0);  // no hysteresis: the speed used is the estimate
  e.record(100, 1.0);      // 100 items/s
  for (int i = 0; i < 3; ++i) e.record(150, 1.0);  // now 150: 63% of the way after N = 3
  EXPECT_NEAR((e.estimate() - 100) / 50, 0.632, 0.01);
  for (int i = 0; i < 6; ++i) e.record(150, 1.0);  // 95% after 3N
  EXPECT_GT((e.estimate() - 100) / 50, 0.95);
}

TEST(SpeedEstimator, AFourTimesSlowdownIsFollowedWithinFourteenIterations) {
  SpeedEstimator e(3, 0);
  e.record(400, 1.0);
  int iterations = 0;
  while (e.estimate() > 100 * 1.05 && iterations < 100) {
    e.record(100, 1.0);
    ++iterations;
  }
  EXPECT_LE(iterations, 14);  // clipped to halving for about 5, then 9 more (3N)
}

TEST(SpeedEstimator, APreemptedIterationMovesItLittle) {
  SpeedEstimator e(3, 0);
  e.record(100, 1.0);
  e.record(100, 1000.0);  // one iteration stretched 1000-fold
  EXPECT_GT(e.estimate(), 100 * 0.85);
}

TEST(SpeedEstimator, NoiseBelowTheHysteresisLeavesTheSpeedUsed) {
  SpeedEstimator e(3, 0.1);
  e.record(100, 1.0);
  for (int i = 0; i < 50; ++i) e.record(i % 2 ? 108 : 92, 1.0);  // +-8%
  EXPECT_DOUBLE_EQ(e.speed(), 100);
  for (int i = 0; i < 10; ++i) e.record(200, 1.0);  // a real change
  EXPECT_GT(e.speed(), 150);
}

}  // namespace
}  // namespace hetlb::mpi::detail
