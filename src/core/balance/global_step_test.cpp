// The global step's plan (global_step.hpp): shares proportional to speeds within one quantum, work
// conserved by the transfers, surplus to deficit only, the least work moved.
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

RC_GTEST_PROP(GlobalStep, WholeItemsSharesAreProportionalToSpeedsWithinOneItem, ()) {
  const auto [work, speed] = instance(true);
  const GlobalStep s = plan_global_step(work, speed, 1.0);
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  const double sum = std::accumulate(speed.begin(), speed.end(), 0.0);
  for (std::size_t r = 0; r < work.size(); ++r) {
    RC_ASSERT(s.target[r] == std::round(s.target[r]));  // whole items
    RC_ASSERT(std::abs(s.target[r] - total * speed[r] / sum) < 1.0 + 1e-9);
  }
}

RC_GTEST_PROP(GlobalStep, RealWorkSharesAreWithinOneQuantumAndAHalf, ()) {
  const auto [work, speed] = instance(false);
  const double quantum = *rc::gen::inRange(1, 50) / 10.0;
  const GlobalStep s = plan_global_step(work, speed, quantum);
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  const double sum = std::accumulate(speed.begin(), speed.end(), 0.0);
  for (std::size_t r = 0; r < work.size(); ++r)
    RC_ASSERT(std::abs(s.target[r] - total * speed[r] / sum) < 1.5 * quantum + 1e-9);
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
