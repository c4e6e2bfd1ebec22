// The global step's plan (global_step.hpp): whole-item shares at the integer optimum (brute force on
// small instances), real work near the divisible optimum, work conserved by the transfers, surplus to
// deficit only, the least work moved.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <numeric>

#include "hetlb/balance/global_step.hpp"
#include "hetlb/error.hpp"

namespace hetlb::balance {
namespace {

// Random work (whole units when `whole`) and speeds in [0.1, 10] for 1 to 64 ranks.
std::pair<std::vector<double>, std::vector<double>> instance(bool whole) {
  const int p = *rc::gen::inRange(1, 65);
  std::vector<double> work, speed;
  for (int r = 0; r < p; ++r) {
    const int w = *rc::gen::inRange(0, 2000);
    work.push_back(whole ? w : w * 0.37);
    speed.push_back(*rc::gen::inRange(1, 101) / 10.0);
  }
  return {work, speed};
}

void check_conservation(const std::vector<double>& work, const GlobalStep& s) {
  const std::size_t p = work.size();
  std::vector<double> net(p, 0.0);  // work[r] - sent + received must be the target
  double moved = 0, surplus = 0;
  for (const Transfer& t : s.transfers) {
    RC_ASSERT(t.from < p);
    RC_ASSERT(t.to < p);
    RC_ASSERT(t.from != t.to);
    RC_ASSERT(t.work > 0);
    RC_ASSERT(work[t.from] > s.target[t.from]);  // only from a surplus
    RC_ASSERT(work[t.to] < s.target[t.to]);      // only to a deficit
    net[t.from] -= t.work;
    net[t.to] += t.work;
    moved += t.work;
  }
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  RC_ASSERT(std::abs(std::accumulate(s.target.begin(), s.target.end(), 0.0) - total) <= 1e-9 * (1 + total));
  for (std::size_t r = 0; r < p; ++r) {
    RC_ASSERT(std::abs(work[r] + net[r] - s.target[r]) <= 1e-6);
    surplus += std::max(0.0, work[r] - s.target[r]);
  }
  RC_ASSERT(std::abs(moved - s.moved) <= 1e-9 * (1 + moved));
  RC_ASSERT(std::abs(moved - surplus) <= 1e-6 * static_cast<double>(p));  // the least work: each surplus once
  RC_ASSERT(s.transfers.size() <= (p > 0 ? p - 1 : 0));
}

RC_GTEST_PROP(GlobalStep, ConservesWorkAndMovesSurplusToDeficit, ()) {
  const auto [work, speed] = instance(*rc::gen::arbitrary<bool>());
  check_conservation(work, plan_global_step(work, speed));
}

// The least max(n_i / s_i) over every way to split `units` whole items among the ranks (brute force).
double brute_force_makespan(const std::vector<double>& speed, int units) {
  const std::size_t p = speed.size();
  double best = INFINITY;
  std::vector<int> n(p, 0);
  const auto walk = [&](auto&& self, std::size_t r, int left) -> void {
    if (r + 1 == p) {
      n[r] = left;
      double t = 0;
      for (std::size_t i = 0; i < p; ++i) t = std::max(t, n[i] / speed[i]);
      best = std::min(best, t);
      return;
    }
    for (int k = 0; k <= left; ++k) {
      n[r] = k;
      self(self, r + 1, left - k);
    }
  };
  walk(walk, 0, units);
  return best;
}

RC_GTEST_PROP(GlobalStep, WholeItemsSharesReachTheIntegerOptimum, ()) {
  const int p = *rc::gen::inRange(1, 5);
  std::vector<double> work, speed;
  for (int r = 0; r < p; ++r) {
    work.push_back(*rc::gen::inRange(0, 7));
    speed.push_back(*rc::gen::inRange(1, 41) / 10.0);
  }
  const GlobalStep s = plan_global_step(work, speed, 1.0);
  const int units = static_cast<int>(std::accumulate(work.begin(), work.end(), 0.0));
  for (std::size_t r = 0; r < work.size(); ++r) RC_ASSERT(s.target[r] == std::round(s.target[r]));  // whole items
  RC_ASSERT(std::abs(s.time_after - brute_force_makespan(speed, units)) <= 1e-9 * (1 + s.time_after));
  check_conservation(work, s);
}

TEST(GlobalStep, LastItemsGoToTheRanksThatFinishThemFirst) {
  // 160 items at speeds 6,5,4,3,2,2,1,1: divisible shares 40, 33.3, 26.7, 20, 13.3, 13.3, 6.7, 6.7. The three
  // items above the floors go to the ranks of speed 4, 5 and 6 (finishing at 6.75, 6.8, 6.83), not to
  // those of the largest fractional parts (speed 1: 7 units of time).
  const GlobalStep s = plan_global_step({160, 0, 0, 0, 0, 0, 0, 0}, {6, 5, 4, 3, 2, 2, 1, 1});
  EXPECT_EQ(s.target, (std::vector<double>{41, 34, 27, 20, 13, 13, 6, 6}));
  EXPECT_DOUBLE_EQ(s.time_after, 41.0 / 6);
}

RC_GTEST_PROP(GlobalStep, RealWorkIsWithinAQuantumOfTheDivisibleOptimum, ()) {
  const auto [work, speed] = instance(false);
  const double quantum = *rc::gen::inRange(1, 50) / 10.0;
  const GlobalStep s = plan_global_step(work, speed, quantum);
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  const double sum = std::accumulate(speed.begin(), speed.end(), 0.0);
  const double slowest = *std::min_element(speed.begin(), speed.end());
  // One quantum more than the divisible optimum on some rank, and the residue below a quantum.
  RC_ASSERT(s.time_after <= total / sum + 2 * quantum / slowest + 1e-9);
  check_conservation(work, s);
}

RC_GTEST_PROP(GlobalStep, BalancedWorkMovesNothing, ()) {
  const auto [work, speed] = instance(true);
  const GlobalStep first = plan_global_step(work, speed);
  const GlobalStep again = plan_global_step(first.target, speed);
  RC_ASSERT(again.transfers.empty());
  RC_ASSERT(again.time_after == again.time_before);
}

TEST(GlobalStep, OneLoadedRankAtSpeedsOneOneHalfQuarter) {
  const GlobalStep s = plan_global_step({0, 0, 0, 110}, {1, 1, 0.5, 0.25});
  EXPECT_EQ(s.target, (std::vector<double>{40, 40, 20, 10}));
  EXPECT_EQ(s.transfers, (std::vector<Transfer>{{3, 0, 40}, {3, 1, 40}, {3, 2, 20}}));
  EXPECT_DOUBLE_EQ(s.moved, 100);
  EXPECT_DOUBLE_EQ(s.busiest, 100);
  EXPECT_DOUBLE_EQ(s.time_before, 440);
  EXPECT_DOUBLE_EQ(s.time_after, 40);
}

TEST(GlobalStep, SurplusesGoToDeficitsInRankOrder) {
  // Equal speeds, shares 10 each: ranks 0 and 2 over, 1 and 3 under.
  const GlobalStep s = plan_global_step({15, 8, 12, 5}, {2, 2, 2, 2});
  EXPECT_EQ(s.target, (std::vector<double>{10, 10, 10, 10}));
  EXPECT_EQ(s.transfers, (std::vector<Transfer>{{0, 1, 2}, {0, 3, 3}, {2, 3, 2}}));
  EXPECT_DOUBLE_EQ(s.busiest, 5);
}

TEST(GlobalStep, RefusesBadInput) {
  EXPECT_THROW(plan_global_step({}, {}), Error);
  EXPECT_THROW(plan_global_step({1, 2}, {1}), Error);
  EXPECT_THROW(plan_global_step({1, -2}, {1, 1}), Error);
  EXPECT_THROW(plan_global_step({1, 2}, {1, 0}), Error);
  EXPECT_THROW(plan_global_step({1, 2}, {1, 1}, 0), Error);
}

TEST(GlobalStep, NoWorkIsBalanced) {
  const GlobalStep s = plan_global_step({0, 0, 0}, {1, 2, 3});
  EXPECT_EQ(s.target, (std::vector<double>{0, 0, 0}));
  EXPECT_TRUE(s.transfers.empty());
}

}  // namespace
}  // namespace hetlb::balance
