// The measured-speed estimator (speed_estimator.hpp): the robust start (a wrong first sample is
// forgotten within the window), a persistent change taken after `confirm` samples, the smoothing as
// stated (63% after N iterations, 95% after 3N), a preempted iteration moves it by at most 14%, noise
// below the margin leaves the speed used alone, and the margin is the samples' measured dispersion
// between its floor and the hysteresis. window = 1, confirm = 0: the smoothing alone.
#include "speed_estimator.hpp"

#include <random>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

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

TEST(SpeedEstimator, TheMarginIsTheHysteresisUntilThreeDeviationsAreCounted) {
  SpeedEstimator e;  // h = 10%, f = 1%, window 3: the window gives one deviation
  EXPECT_DOUBLE_EQ(e.margin(), 0.1);
  for (int i = 0; i < 3; ++i) e.record(100, 1.0);
  EXPECT_DOUBLE_EQ(e.margin(), 0.1);
  e.record(100, 1.0);
  EXPECT_DOUBLE_EQ(e.margin(), 0.1);
  e.record(100, 1.0);  // the third deviation: noise-free samples give the floor
  EXPECT_DOUBLE_EQ(e.noise(), 0.0);
  EXPECT_DOUBLE_EQ(e.margin(), 0.01);
}

TEST(SpeedEstimator, NoiseFreeSamplesFollowAFivePercentChangeTheFixedMarginIgnores) {
  SpeedEstimator adaptive;                     // f = 1%
  SpeedEstimator fixed(3, 0.1, 3, 2, 0.1);     // f >= h: the fixed margin h
  for (SpeedEstimator* e : {&adaptive, &fixed}) {
    for (int i = 0; i < 10; ++i) e->record(100, 1.0);
    for (int i = 0; i < 10; ++i) e->record(105, 1.0);  // 5% faster
  }
  EXPECT_NEAR(adaptive.speed(), 105, 105 * 0.01);
  EXPECT_DOUBLE_EQ(fixed.speed(), 100);
  EXPECT_DOUBLE_EQ(fixed.margin(), 0.1);
}

TEST(SpeedEstimator, AWrongFirstSampleAndAPersistentChangeAreNotNoise) {
  SpeedEstimator e;
  e.record(3000, 1.0);  // 30x too fast: the window's largest deviation, not counted
  for (int i = 0; i < 4; ++i) e.record(100, 1.0);
  EXPECT_DOUBLE_EQ(e.noise(), 0.0);
  for (int i = 0; i < 5; ++i) e.record(300, 1.0);  // a new speed (confirmed after 2): its run is not counted
  EXPECT_DOUBLE_EQ(e.speed(), 300);
  EXPECT_LT(e.noise(), 0.01);
  EXPECT_DOUBLE_EQ(e.margin(), 0.01);
}

TEST(SpeedEstimator, TheMarginIsTwiceTheMeasuredDispersionUpToTheHysteresis) {
  std::mt19937 draw(11);
  std::uniform_real_distribution<double> small(96, 104);  // +-4%: mean absolute deviation 2%
  SpeedEstimator quiet;
  for (int i = 0; i < 300; ++i) quiet.record(small(draw), 1.0);
  EXPECT_NEAR(quiet.noise(), 0.02, 0.006);
  EXPECT_NEAR(quiet.margin(), 2 * quiet.noise(), 1e-12);
  EXPECT_NEAR(quiet.speed(), 100, 100 * quiet.margin() + 2);
  std::uniform_real_distribution<double> large(70, 130);  // +-30%: 15%, beyond the hysteresis
  SpeedEstimator noisy;
  for (int i = 0; i < 300; ++i) noisy.record(large(draw), 1.0);
  EXPECT_GT(noisy.noise(), 0.1);
  EXPECT_DOUBLE_EQ(noisy.margin(), 0.1);
}

// Whatever the samples: the margin stays between min(f, h) and h, and after each sample the speed used
// is within the margin of the estimate (it follows the estimate beyond it).
RC_GTEST_PROP(SpeedEstimator, TheSpeedUsedStaysWithinTheMarginOfTheEstimate, ()) {
  const double h = *rc::gen::inRange(0, 30) / 100.0;
  const double f = *rc::gen::inRange(0, 30) / 100.0;
  SpeedEstimator e(*rc::gen::inRange(1, 10), h, *rc::gen::inRange(1, 5), *rc::gen::inRange(0, 4), f);
  const int samples = *rc::gen::inRange(1, 60);
  for (int i = 0; i < samples; ++i) {
    e.record(*rc::gen::inRange(1, 1000), *rc::gen::inRange(1, 100) / 10.0);
    RC_ASSERT(e.margin() >= std::min(f, h) - 1e-15);
    RC_ASSERT(e.margin() <= h + 1e-15);
    RC_ASSERT(e.noise() >= 0.0);
    RC_ASSERT(e.noise() <= 1.0);
    RC_ASSERT(std::abs(e.estimate() - e.speed()) <= e.margin() * e.speed() * (1 + 1e-12));
  }
}

}  // namespace
}  // namespace hetlb::mpi::detail
