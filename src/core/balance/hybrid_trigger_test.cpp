// The hybrid trigger (hybrid_trigger.hpp): never a step whose predicted cost exceeds its gain, a step
// when the gain clearly pays, at most one step every min_interval iterations, none for noise below
// the margin.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "hetlb/balance/hybrid_trigger.hpp"
#include "hetlb/error.hpp"

namespace hetlb::balance {
namespace {

std::vector<double> random_work(std::size_t p) {
  std::vector<double> w;
  for (std::size_t r = 0; r < p; ++r) w.push_back(*rc::gen::inRange(0, 5000));
  return w;
}

std::vector<double> random_speeds(std::size_t p) {
  std::vector<double> s;
  for (std::size_t r = 0; r < p; ++r) s.push_back(*rc::gen::inRange(1, 101) / 10.0);
  return s;
}

TriggerInputs random_inputs() {
  TriggerInputs in;
  in.iteration_seconds = *rc::gen::inRange(0, 10000) * 1e-4;
  in.iterations_left = *rc::gen::inRange(0, 2000);
  in.collective_seconds = *rc::gen::inRange(0, 10000) * 1e-5;
  in.seconds_per_work = *rc::gen::inRange(0, 10000) * 1e-7;
  return in;
}

RC_GTEST_PROP(HybridTrigger, NeverAStepWhoseCostExceedsItsGain, ()) {
  const std::size_t p = *rc::gen::inRange<std::size_t>(1, 33);
  const double margin = *rc::gen::inRange(0, 30) / 100.0;
  HybridTrigger trigger(*rc::gen::inRange(1, 10), margin);
  long iteration = 0;
  for (int k = 0; k < 20; ++k) {
    iteration += *rc::gen::inRange(0, 5);
    const GlobalStep plan = plan_global_step(random_work(p), random_speeds(p));
    TriggerInputs in = random_inputs();
    if (*rc::gen::arbitrary<bool>()) in.margin = *rc::gen::inRange(0, 30) / 100.0;  // the ranks' measured one
    const TriggerDecision d = trigger.decide(iteration, plan, in);
    // The gain and the cost, computed here from their definitions.
    const double m = in.margin >= 0 ? in.margin : margin;
    const double saved = plan.time_before > 0 ? 1 - (1 + m) * plan.time_after / plan.time_before : 0;
    const double gain = in.iterations_left * in.iteration_seconds * std::max(0.0, saved);
    const double cost = in.collective_seconds + in.seconds_per_work * plan.busiest;
    RC_ASSERT(std::abs(d.gain - gain) <= 1e-9 * (1 + gain));
    RC_ASSERT(std::abs(d.cost - cost) <= 1e-9 * (1 + cost));
    if (d.step) {
      RC_ASSERT(d.cost < d.gain);
      RC_ASSERT(plan.moved > 0);
    }
  }
}

// The margin the ranks measured (TriggerInputs::margin) replaces the trigger's own: a plan 5% shorter is
// within a 10% margin (noise, no step) and beyond a 1% one (a step), all else equal.
TEST(HybridTrigger, TheMeasuredMarginReplacesTheTriggersOwn) {
  const GlobalStep plan = plan_global_step({11.0, 9.0}, {1.0, 1.0});  // 11 -> 10: 1/11 shorter
  TriggerInputs in;
  in.iteration_seconds = 11.0;
  in.iterations_left = 100;
  HybridTrigger trigger(1, 0.1);
  EXPECT_FALSE(trigger.evaluate(plan, in).step);  // (1 + 0.1) x 10 >= 11
  in.margin = 0.01;
  EXPECT_TRUE(trigger.evaluate(plan, in).step);
  EXPECT_NEAR(trigger.evaluate(plan, in).gain, 100 * 11.0 * (1 - 1.01 * 10 / 11), 1e-9);
  in.margin = 0.1;
  EXPECT_FALSE(trigger.evaluate(plan, in).step);
  in.margin = std::nan("");  // not a number: the trigger's own
  EXPECT_FALSE(trigger.evaluate(plan, in).step);
}

RC_GTEST_PROP(HybridTrigger, StepsWhenTheGainClearlyPays, ()) {
  // One loaded rank: the iteration is p-fold (or more) too long; a thousand iterations left.
  const std::size_t p = *rc::gen::inRange<std::size_t>(2, 33);
  std::vector<double> work(p, 0.0);
  work[*rc::gen::inRange<std::size_t>(0, p)] = 1000.0 * static_cast<double>(p);
  HybridTrigger trigger(4, 0.1);
  TriggerInputs in;
  in.iteration_seconds = 1.0;
  in.iterations_left = 1000;
  in.collective_seconds = 1e-3;
  in.seconds_per_work = 1e-6;
  const TriggerDecision d = trigger.decide(0, plan_global_step(work, std::vector<double>(p, 1.0)), in);
  RC_ASSERT(d.step);
  RC_ASSERT(trigger.last_step() == 0L);
}

RC_GTEST_PROP(HybridTrigger, AtMostOneStepEveryMinIntervalIterations, ()) {
  // Noise of any size on the speeds and the work, a large gain every time: steps are still spaced.
  const long n = *rc::gen::inRange(1, 12);
  HybridTrigger trigger(n, 0.1);
  const std::size_t p = *rc::gen::inRange<std::size_t>(2, 17);
  TriggerInputs in;
  in.iteration_seconds = 1.0;
  in.iterations_left = 1e6;
  long previous = -1;
  for (long it = 0; it < 200; ++it) {
    std::vector<double> work = random_work(p);
    work[0] += 50000;  // always far from balance
    if (trigger.decide(it, plan_global_step(work, random_speeds(p)), in).step) {
      if (previous >= 0) RC_ASSERT(it - previous >= n);
      previous = it;
    }
  }
  RC_ASSERT(previous >= 0);
}

RC_GTEST_PROP(HybridTrigger, NoiseBelowTheMarginTakesNoSecondStep, ()) {
  // True speeds; each iteration the speeds seen are off by at most a third of the margin (the
  // estimates' resolution). After the first step the work is at the plan's targets, and what is left
  // of the imbalance is noise: no second step, however long the run and cheap the step.
  const double margin = 0.1;
  HybridTrigger trigger(1, margin);
  const std::size_t p = *rc::gen::inRange<std::size_t>(2, 17);
  const std::vector<double> truth = random_speeds(p);
  std::vector<double> work = random_work(p);
  // The slowest rank holds much more than everything else: far from balance at the start.
  const auto slowest = static_cast<std::size_t>(std::min_element(truth.begin(), truth.end()) - truth.begin());
  work[slowest] += 1e5 * static_cast<double>(p);
  TriggerInputs in;
  in.iteration_seconds = 1.0;
  in.iterations_left = 1e9;
  int steps = 0;
  for (long it = 0; it < 100; ++it) {
    std::vector<double> seen = truth;
    for (double& s : seen) s *= 1 + *rc::gen::inRange(-1000, 1001) / 1000.0 * margin / 3;
    const GlobalStep plan = plan_global_step(work, seen);
    if (trigger.decide(it, plan, in).step) {
      ++steps;
      work = plan.target;
    }
  }
  RC_ASSERT(steps == 1);
}

RC_GTEST_PROP(HybridTrigger, AProvisionalStepAllowsOneEarlyStepThenTheInterval, ()) {
  // Steps on provisional speeds (a rank without a sample) whenever they are allowed, a large gain every
  // time: after a provisional step the next comes at once; after an early step, min_interval again,
  // whatever the inputs say.
  const long n = *rc::gen::inRange(2, 12);
  HybridTrigger trigger(n, 0.1);
  TriggerInputs in;
  in.iteration_seconds = 1.0;
  in.iterations_left = 1e6;
  std::vector<long> steps;
  for (long it = 0; it < 100; ++it) {
    in.provisional = *rc::gen::inRange(0, 2) == 1;
    std::vector<double> work{1e5, 0.0, static_cast<double>(it % 7)};
    const bool provisional = in.provisional;
    if (trigger.decide(it, plan_global_step(work, {1.0, 1.0, 1.0}), in).step) {
      if (steps.size() >= 2) {
        const long gap = it - steps.back(), before = steps.back() - steps[steps.size() - 2];
        RC_ASSERT(gap >= 1);
        if (gap < n) RC_ASSERT(before >= n);  // never two early steps in a row
      }
      steps.push_back(it);
      if (provisional && (steps.size() < 2 || steps.back() - steps[steps.size() - 2] >= n))
        RC_ASSERT(trigger.due(it + 1));
    }
  }
  RC_ASSERT(!steps.empty());
}

TEST(HybridTrigger, ProvisionalStepThenOneAtTheNextIteration) {
  HybridTrigger trigger(4, 0.1);
  TriggerInputs in;
  in.iteration_seconds = 1.0;
  in.iterations_left = 1000;
  const GlobalStep far = plan_global_step({100.0, 0.0}, {1.0, 1.0});
  in.provisional = true;
  EXPECT_TRUE(trigger.decide(1, far, in).step);
  EXPECT_TRUE(trigger.due(2));  // every rank measured by then
  in.provisional = false;
  EXPECT_TRUE(trigger.decide(2, far, in).step);
  EXPECT_FALSE(trigger.due(3));  // the interval again
  EXPECT_TRUE(trigger.due(6));
  // Without a provisional step: the interval.
  HybridTrigger plain(4, 0.1);
  EXPECT_TRUE(plain.decide(1, far, in).step);
  EXPECT_FALSE(plain.due(2));
  // An early step on provisional speeds again (a rank still without a sample): no second early step.
  HybridTrigger twice(4, 0.1);
  in.provisional = true;
  EXPECT_TRUE(twice.decide(1, far, in).step);
  EXPECT_TRUE(twice.decide(2, far, in).step);
  EXPECT_FALSE(twice.due(3));
}

TEST(HybridTrigger, IterationsLeftFromTheDeclaredTotalOrTheRunSoFar) {
  EXPECT_EQ(iterations_left(30, 100, 20), 70);
  EXPECT_EQ(iterations_left(130, 100, 20), 0);
  EXPECT_EQ(iterations_left(30, 0, 20), 30);  // as many again as done
  EXPECT_EQ(iterations_left(3, 0, 20), 20);   // at least what the run needs to converge
}

TEST(HybridTrigger, CostOfMovingAgainstAShortRun) {
  // Speeds 1, 1, 0.5, 0.25, all the work on the slowest rank: time 440 -> 40 per iteration of work.
  const GlobalStep plan = plan_global_step({0, 0, 0, 110}, {1, 1, 0.5, 0.25});
  TriggerInputs in;
  in.iteration_seconds = 0.44;  // s
  in.collective_seconds = 1e-3;
  in.seconds_per_work = 1e-3;   // moving 100 units (the busiest rank's) costs 0.1 s
  in.iterations_left = 1;       // saves 0.44 x (1 - 1.1 x 40 / 440) = 0.396 s > 0.101 s
  HybridTrigger a(1, 0.1);
  const TriggerDecision yes = a.decide(5, plan, in);
  EXPECT_TRUE(yes.step);
  EXPECT_NEAR(yes.gain, 0.396, 1e-12);
  EXPECT_NEAR(yes.cost, 0.101, 1e-12);
  in.seconds_per_work = 1e-2;   // now 1.001 s: not worth it for one iteration
  HybridTrigger b(1, 0.1);
  EXPECT_FALSE(b.decide(5, plan, in).step);
  in.iterations_left = 3;       // but worth it for three (1.188 s)
  EXPECT_TRUE(b.decide(6, plan, in).step);
}

// A step's synchronisation is one round of the gather, not the gather (one_round_seconds): ceil(log2 p)
// rounds, at least one; nothing for a gather that took no time or is not a number.
TEST(HybridTrigger, OneRoundOfTheGather) {
  EXPECT_DOUBLE_EQ(one_round_seconds(1.1, 256), 1.1 / 8);
  EXPECT_DOUBLE_EQ(one_round_seconds(1.1, 257), 1.1 / 9);
  EXPECT_DOUBLE_EQ(one_round_seconds(0.3, 3), 0.15);
  EXPECT_DOUBLE_EQ(one_round_seconds(0.3, 2), 0.3);
  EXPECT_DOUBLE_EQ(one_round_seconds(0.3, 1), 0.3);
  EXPECT_DOUBLE_EQ(one_round_seconds(0.3, 0), 0.3);
  EXPECT_DOUBLE_EQ(one_round_seconds(0, 16), 0.0);
  EXPECT_DOUBLE_EQ(one_round_seconds(-1, 16), 0.0);
  EXPECT_DOUBLE_EQ(one_round_seconds(std::numeric_limits<double>::quiet_NaN(), 16), 0.0);
}

// At 256 ranks across sites the gather took 1.1 s and a step's moves 0.35 s: a step predicted to save
// 0.5 s is worth taking. Charged the whole gather (1.1 s + the moves) the trigger declined it; charged
// one round (0.1375 s + the moves) it takes it.
TEST(HybridTrigger, AStepIsChargedOneRoundNotTheGather) {
  const GlobalStep plan = plan_global_step({10, 10, 10, 30}, {1, 1, 1, 1});  // 30 -> 15 per iteration
  TriggerInputs in;
  in.iteration_seconds = 0.1;
  in.iterations_left = 12;      // saves 12 x 0.1 x (1 - 1.1 x 15 / 30) = 0.54 s
  in.seconds_per_work = 0.01;   // the busiest rank's 15 units: 0.15 s
  in.collective_seconds = 1.1;  // the whole gather: 1.25 s > 0.54 s
  HybridTrigger whole(1, 0.1);
  EXPECT_FALSE(whole.decide(4, plan, in).step);
  in.collective_seconds = one_round_seconds(1.1, 256);
  HybridTrigger round(1, 0.1);
  const TriggerDecision d = round.decide(4, plan, in);
  EXPECT_TRUE(d.step);
  EXPECT_NEAR(d.gain, 0.54, 1e-12);
  EXPECT_NEAR(d.cost, 0.1375 + 0.15, 1e-12);
}

TEST(HybridTrigger, RefusesBadParameters) {
  EXPECT_THROW(HybridTrigger(0, 0.1), Error);
  EXPECT_THROW(HybridTrigger(1, -0.1), Error);
}

// The measured cost per unit of work leaves out the collective's latency, which the cost charges apart:
// a step of 8 ms whose collective waits 2 ms, moving 30 units at its busiest rank, costs 0.2 ms a unit,
// and the next step's predicted cost is then 2 ms + 0.2 ms x its busiest, not 2 ms more; nothing moved
// keeps the last measure; a step shorter than the latency is free to move.
TEST(HybridTrigger, SecondsPerWorkLeaveTheCollectivesLatencyToTheCost) {
  EXPECT_DOUBLE_EQ(seconds_per_work(8e-3, 2e-3, 30, 1.0), 0.2e-3);
  EXPECT_DOUBLE_EQ(seconds_per_work(8e-3, 0, 40, 1.0), 0.2e-3);
  EXPECT_DOUBLE_EQ(seconds_per_work(8e-3, 2e-3, 0, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(seconds_per_work(1e-3, 2e-3, 10, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(seconds_per_work(8e-3, -1, 40, 0.5), 0.2e-3);
  HybridTrigger t(1, 0);
  GlobalStep plan;
  plan.moved = 10;
  plan.busiest = 10;
  plan.time_before = 2;
  plan.time_after = 1;
  TriggerInputs in;
  in.iteration_seconds = 1e-3;
  in.iterations_left = 10;
  in.collective_seconds = 2e-3;
  in.seconds_per_work = seconds_per_work(8e-3, 2e-3, 30, 0);
  EXPECT_NEAR(t.evaluate(plan, in).cost, 2e-3 + 2e-3, 1e-12);
}

// The start step's claim (hybrid_trigger.hpp): with the speeds unknown, the equal-speeds plan's worst
// case of max work_i / speed_i over every assignment of a set of speeds to the ranks is no worse than
// the initial work's, checked by enumerating the assignments (p <= 5); and it is taken exactly when it
// shortens the equal-speeds iteration by more than the margin.
double worst_over_assignments(const std::vector<double>& work, std::vector<double> speeds) {
  std::sort(speeds.begin(), speeds.end());
  double worst = 0;
  do {
    double t = 0;
    for (std::size_t r = 0; r < work.size(); ++r) t = std::max(t, work[r] / speeds[r]);
    worst = std::max(worst, t);
  } while (std::next_permutation(speeds.begin(), speeds.end()));
  return worst;
}

RC_GTEST_PROP(HybridTrigger, StartStepOnEqualSpeedsMinimisesTheWorstAssignment, ()) {
  const auto p = static_cast<std::size_t>(*rc::gen::inRange(2, 6));
  const std::vector<double> work = random_work(p), speeds = random_speeds(p);
  RC_PRE(std::accumulate(work.begin(), work.end(), 0.0) > 0);
  const GlobalStep plan = plan_global_step(work, std::vector<double>(p, 1.0), 1.0);
  RC_ASSERT(worst_over_assignments(plan.target, speeds) <= worst_over_assignments(work, speeds) * (1 + 1e-12));
  const double margin = *rc::gen::inRange(0, 50) / 100.0;
  const bool empty = std::any_of(work.begin(), work.end(), [](double w) { return w == 0; });
  RC_ASSERT(start_step_worth(work, plan, margin, false) ==
            (plan.moved > 0 && (1 + margin) * plan.time_after < plan.time_before));
  // Measured speeds: only when some rank holds nothing (its first step would be provisional anyway).
  RC_ASSERT(start_step_worth(work, plan, margin, true) == (empty && start_step_worth(work, plan, margin, false)));
  if (start_step_worth(work, plan, margin, false)) {  // it really shortens the equal-speeds iteration
    const double before = *std::max_element(work.begin(), work.end());
    const double after = *std::max_element(plan.target.begin(), plan.target.end());
    RC_ASSERT(after * (1 + margin) < before);
  }
}

// A hand-over the rule declines never pays: moving a units from the sender (work w, speed s) to a
// receiver (work v, speed r) saves at most a / s per iteration, whatever the two loads; and one it
// takes pays when the sender is the slowest by far.
RC_GTEST_PROP(HybridTrigger, HandoverDeclinedOnlyWhenItCannotPay, ()) {
  const double w = *rc::gen::inRange(1, 1000), v = *rc::gen::inRange(0, 1000);
  const double s = *rc::gen::inRange(1, 100) / 10.0, r = *rc::gen::inRange(1, 100) / 10.0;
  const double a = *rc::gen::inRange(1, static_cast<int>(w) + 1);
  const double left = *rc::gen::inRange(0, 200), per_work = *rc::gen::inRange(0, 1000) / 100.0;
  const double margin = *rc::gen::inRange(0, 50) / 100.0;
  const double saved = left * (std::max(w / s, v / r) - std::max((w - a) / s, (v + a) / r));
  if (!handover_worth(left, s, per_work, margin)) RC_ASSERT(saved <= (1 + margin) * a * per_work + 1e-9);
  if (handover_worth(left, s, per_work, margin) && per_work > 0 && v / r + a / r <= (w - a) / s)
    RC_ASSERT(saved > a * per_work);  // the sender stays the slowest: it saves a / s every iteration
}

TEST(HybridTrigger, Handover) {
  EXPECT_TRUE(handover_worth(60, 6.0, 0.0, 0.1));      // no cost measured yet
  EXPECT_TRUE(handover_worth(60, 0.0, 1.0, 0.1));      // no speed: nothing to weigh
  EXPECT_TRUE(handover_worth(60, 1000.0, 1e-3, 0.1));  // 1 ms a unit over 60 iterations vs 1 ms a move
  EXPECT_FALSE(handover_worth(20, 1e4, 3e-3, 0.1));    // 0.1 ms a unit over 20 iterations vs a 3 ms move
  EXPECT_TRUE(handover_worth(60, 1e4, 3e-3, 0.1));     // over 60 iterations: 6 ms
  EXPECT_FALSE(handover_worth(0, 1.0, 1e-9, 0.0));     // the last iteration: nothing left to gain
}

TEST(HybridTrigger, HandoverOnlyBeyondTheMargin) {
  EXPECT_FALSE(handover_beyond_margin(1.0, 0.1));   // at its share (or within whole items of it)
  EXPECT_FALSE(handover_beyond_margin(1.1, 0.1));   // within the speeds' resolution: maybe noise
  EXPECT_TRUE(handover_beyond_margin(1.1001, 0.1));
  EXPECT_FALSE(handover_beyond_margin(0.5, 0.1));   // below its share: it receives, it does not give
  EXPECT_TRUE(handover_beyond_margin(1.05, 0.0));   // no margin: any excess
  EXPECT_TRUE(handover_beyond_margin(1.05, -1.0));  // a negative margin counts as none
  EXPECT_TRUE(handover_beyond_margin(std::numeric_limits<double>::infinity(), 0.1));  // no share known
  EXPECT_FALSE(handover_beyond_margin(std::nan(""), 0.1));
}

TEST(HybridTrigger, StartStep) {
  // All on one rank: worth it; already even (or within the margin): not; the next step may come at once.
  const auto worth = [](const std::vector<double>& work, const std::vector<double>& speeds, double margin,
                        bool measured) { return start_step_worth(work, plan_global_step(work, speeds), margin, measured); };
  const std::vector<double> equal(4, 1.0);
  EXPECT_TRUE(worth({40.0, 0.0, 0.0, 0.0}, equal, 0.1, true));
  EXPECT_TRUE(worth({40.0, 0.0, 0.0, 0.0}, equal, 0.1, false));
  EXPECT_FALSE(worth({10.0, 10.0, 10.0, 10.0}, equal, 0.1, false));
  EXPECT_FALSE(worth({11.0, 10.0, 10.0, 9.0}, equal, 0.1, false));
  EXPECT_TRUE(worth({11.0, 10.0, 10.0, 9.0}, equal, 0.05, false));
  // Measured speeds, every rank holding work (a random start): every rank measures itself in the first
  // iteration, the step after it goes to the measured shares; no start step.
  EXPECT_FALSE(worth({30.0, 2.0, 5.0, 3.0}, equal, 0.1, true));
  EXPECT_TRUE(worth({30.0, 2.0, 5.0, 3.0}, equal, 0.1, false));
  EXPECT_TRUE(worth({30.0, 0.0, 5.0, 5.0}, equal, 0.1, true));
  // Given speeds 2, 1, 1 and the load already in their proportions: nothing to do.
  EXPECT_FALSE(worth({20.0, 10.0, 10.0}, {2.0, 1.0, 1.0}, 0.1, false));
  HybridTrigger trigger(4, 0.1);
  trigger.taken(0, true);
  EXPECT_TRUE(trigger.due(1));
}

}  // namespace
}  // namespace hetlb::balance
