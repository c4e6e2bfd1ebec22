// The measured-speed estimator (speed_estimator.hpp): the robust start (a wrong first sample is
// forgotten within the window), a persistent change taken after `confirm` samples, the smoothing as
// stated (63% after N iterations, 95% after 3N), a preempted iteration moves it by at most 14%, noise
// below the hysteresis leaves the speed used alone. window = 1, confirm = 0: the smoothing alone.
#include "speed_estimator.hpp"

#include <random>

#include <gtest/gtest.h>

namespace hetlb::mpi::detail {
namespace {

TEST(SpeedEstimator, FirstSampleSetsTheSpeedWithAWindowOfOne) {
  SpeedEstimator e(3, 0.1, 1, 0);
  EXPECT_FALSE(e.known());
  e.record(0, 1.0);  // no load: no sample
  e.record(10, 0.0);  // no time: no sample
  EXPECT_FALSE(e.known());
  e.record(100, 0.5);
  EXPECT_DOUBLE_EQ(e.speed(), 200);
  EXPECT_TRUE(e.trusted());
}

TEST(SpeedEstimator, AFirstSampleThirtyTimesTooHighIsForgottenWithinTheWindow) {
  SpeedEstimator e;  // defaults: N = 3, h = 10%, window 3, confirm 2
  e.record(3000, 1.0);  // a first frame of nearly empty work
  EXPECT_TRUE(e.known());
  EXPECT_FALSE(e.trusted());
  e.record(100, 1.0);
  EXPECT_DOUBLE_EQ(e.speed(), 100);  // the lower of two: forgotten at the second sample
  e.record(100, 1.0);
  EXPECT_TRUE(e.trusted());
  EXPECT_DOUBLE_EQ(e.speed(), 100);
  for (int i = 0; i < 3; ++i) e.record(100, 1.0);
  EXPECT_DOUBLE_EQ(e.speed(), 100);
}

TEST(SpeedEstimator, AFirstSampleThirtyTimesTooLowIsForgottenAtTheThird) {
  SpeedEstimator e;
  e.record(100, 30.0);  // one preempted first iteration
  e.record(100, 1.0);
  e.record(100, 1.0);
  EXPECT_DOUBLE_EQ(e.speed(), 100);
}

TEST(SpeedEstimator, AThreeTimesSlowdownIsFollowedWithinTwoIterations) {
  SpeedEstimator e;
  for (int i = 0; i < 5; ++i) e.record(300, 1.0);
  int iterations = 0;
  while (std::abs(e.speed() - 100) > 100 * 0.05 && iterations < 100) {
    e.record(100, 1.0);
    ++iterations;
  }
  EXPECT_LE(iterations, 2);
  // The same with the confirmation off: the clipped smoothing alone takes about 4 times longer.
  SpeedEstimator slow(3, 0.1, 3, 0);
  for (int i = 0; i < 5; ++i) slow.record(300, 1.0);
  int slow_iterations = 0;
  while (std::abs(slow.speed() - 100) > 100 * 0.05 && slow_iterations < 100) {
    slow.record(100, 1.0);
    ++slow_iterations;
  }
  EXPECT_GE(slow_iterations, 8);
}

TEST(SpeedEstimator, AThreeTimesSpeedUpIsFollowedWithinTwoIterations) {
  SpeedEstimator e;
  for (int i = 0; i < 5; ++i) e.record(100, 1.0);
  e.record(300, 1.0);
  EXPECT_LT(e.speed(), 200);  // one sample: not yet a change
  e.record(300, 1.0);
  EXPECT_DOUBLE_EQ(e.speed(), 300);
}

TEST(SpeedEstimator, OutliersOnAlternateSidesAreNotAChange) {
  SpeedEstimator e(3, 0.1);
  for (int i = 0; i < 3; ++i) e.record(100, 1.0);
  for (int i = 0; i < 10; ++i) e.record(i % 2 ? 400 : 25, 1.0);  // preempted / lucky, alternately
  EXPECT_GT(e.speed(), 50);
  EXPECT_LT(e.speed(), 200);
}

TEST(SpeedEstimator, FollowsAStepWithinItsTimeConstant) {
  SpeedEstimator e(3, 0, 1, 0);  // no hysteresis: the speed used is the estimate
  e.record(100, 1.0);            // 100 items/s
  for (int i = 0; i < 3; ++i) e.record(150, 1.0);  // now 150: 63% of the way after N = 3
  EXPECT_NEAR((e.estimate() - 100) / 50, 0.632, 0.01);
  for (int i = 0; i < 6; ++i) e.record(150, 1.0);  // 95% after 3N
  EXPECT_GT((e.estimate() - 100) / 50, 0.95);
}

TEST(SpeedEstimator, AFourTimesSlowdownIsFollowedWithinFourteenIterationsWithoutConfirmation) {
  SpeedEstimator e(3, 0, 1, 0);
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
  for (int i = 0; i < 3; ++i) e.record(100, 1.0);
  e.record(100, 1000.0);  // one iteration stretched 1000-fold
  EXPECT_GT(e.estimate(), 100 * 0.85);
  e.record(100, 1.0);  // back to normal: the run of outliers ends
  e.record(100, 1000.0);  // another lone one
  EXPECT_GT(e.estimate(), 100 * 0.7);
  e.record(100, 1000.0);  // two in a row (confirm = 2): a new speed, taken as a whole
  EXPECT_LT(e.estimate(), 1);
}

TEST(SpeedEstimator, NoiseBelowTheHysteresisLeavesTheSpeedUsed) {
  SpeedEstimator e(3, 0.1);
  for (int i = 0; i < 3; ++i) e.record(100, 1.0);
  for (int i = 0; i < 50; ++i) e.record(i % 2 ? 110 : 90, 1.0);  // +-10%, alternating
  EXPECT_DOUBLE_EQ(e.speed(), 100);
  std::mt19937 draw(7);
  std::uniform_real_distribution<double> noise(90, 110);  // +-10%, uniform
  for (int i = 0; i < 500; ++i) e.record(noise(draw), 1.0);
  EXPECT_DOUBLE_EQ(e.speed(), 100);
  for (int i = 0; i < 10; ++i) e.record(200, 1.0);  // a real change
  EXPECT_GT(e.speed(), 150);
}

}  // namespace
}  // namespace hetlb::mpi::detail
