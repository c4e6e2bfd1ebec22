// Strategies: hand-checked steps against the paper's equations, and properties of every rule.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

constexpr double kEps = 1e-12;

// Best effort by hand (Section 3): x_i = 10, neighbours {9, 2, 12, 4}. Sorted 2, 4, 9, 12.
// {2}: mean 6, 2 < 6; {2,4}: mean 16/3, 4 < 16/3; {2,4,9}: mean 25/4 <= 9, stop.
// S_i = {2, 4}, xbar = 16/3, s = xbar - x_j = 10/3 and 4/3; x_i - sum s = 16/3 = xbar.
TEST(BestEffort, StepCheckedByHand) {
  const std::vector<double> nb{9, 2, 12, 4};
  const auto s = best_effort_transfers(10, nb, 1);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_NEAR(s[0], 0, kEps);
  EXPECT_NEAR(s[1], 10.0 / 3, kEps);
  EXPECT_NEAR(s[2], 0, kEps);
  EXPECT_NEAR(s[3], 4.0 / 3, kEps);
  const double xbar = 16.0 / 3;
  EXPECT_NEAR(10 - s[1] - s[3], xbar, kEps);  // x_i - sum s_ij = xbar
  EXPECT_NEAR(nb[1] + s[1], xbar, kEps);      // x_j + s_ij = xbar
  EXPECT_NEAR(nb[3] + s[3], xbar, kEps);
}

TEST(BestEffort, ParameterKDividesEveryTransfer) {
  const auto s = best_effort_transfers(10, {9, 2, 12, 4}, 4);
  EXPECT_NEAR(s[1], 10.0 / 12, kEps);
  EXPECT_NEAR(s[3], 4.0 / 12, kEps);
  EXPECT_THROW(best_effort_transfers(10, {2}, 0.5), Error);
}

TEST(BestEffort, NothingToMoreLoadedNeighbours) {
  EXPECT_EQ(best_effort_transfers(5, {5, 7, 9}, 1), (std::vector<double>{0, 0, 0}));
}

// The paper's 3-node chain (Section 2): x1 = 10, x2 = 100, x3 = 99.99. Node 2 may only send 0.01
// to node 1 under the ping-pong condition: the "simple" rule sends exactly that.
TEST(Simple, PaperChainExample) {
  const auto s = simple_transfers(100, {10, 99.99});
  EXPECT_NEAR(s[0], 0.01, 1e-9);
  EXPECT_EQ(s[1], 0);
}

// The chain again, with the heavier neighbour lighter by residue only (the 16-node deadlock of the
// study: 9e-13 below a load of 2,459): the draft's rule sends the residue, which balance() drops;
// with residue_equal that neighbour counts as equal and the light end gets half the difference.
TEST(Simple, ResidueEqualIgnoresANeighbourLighterByResidueOnly) {
  const double x = 2458.9841841163893, residue_below = 2458.9841841163884;
  const auto draft = simple_transfers(x, {1373, residue_below});
  EXPECT_GT(draft[0], 0);
  EXPECT_LT(draft[0], 1e-11);
  EXPECT_EQ(balance(Strategy{StrategyKind::simple}, x, {1373, residue_below}), (std::vector<double>{0, 0}));
  Strategy tolerant{StrategyKind::simple};
  tolerant.residue_equal = true;
  const auto s = balance(tolerant, x, {1373, residue_below});
  EXPECT_DOUBLE_EQ(s[0], (x - 1373) / 2);
  EXPECT_EQ(s[1], 0);
  // A real gap (the draft's 99.99 below 100, or 5e-4 below 1,039) still bounds the transfer.
  EXPECT_NEAR(simple_transfers(100, {10, 99.99}, true)[0], 0.01, 1e-9);
  EXPECT_NEAR(simple_transfers(1039, {905, 1039 - 5e-4}, true)[0], 5e-4, 1e-9);
}

TEST(Simple, HalfTheDifferenceWithOneLighterNeighbour) {
  EXPECT_EQ(simple_transfers(10, {2, 20}), (std::vector<double>{4, 0}));
}

// Makhoul: x_i = 10, neighbours {2, 4}, N = 2: differences 8 and 6, offers 8/3 then 2; after the first
// transfer 22/3 - 2 = 16/3 < 4 + 2, so the loop stops.
TEST(Makhoul, StopsWhenTheNodeWouldBecomeLighter) {
  const auto s = makhoul_transfers(10, {2, 4});
  EXPECT_NEAR(s[0], 8.0 / 3, kEps);
  EXPECT_EQ(s[1], 0);
  const auto t = makhoul_transfers(100, {0, 0, 0});
  for (double x : t) EXPECT_NEAR(x, 25, kEps);
}

TEST(Integer, RoundsDown) {
  const auto s = balance({StrategyKind::besteffort, 1, true}, 10, {9, 2, 12, 4});
  EXPECT_EQ(s, (std::vector<double>{0, 3, 0, 1}));
}

TEST(Integer, UnitStepWhenEverythingRoundsToZero) {
  // k = 4: real transfer 1/4 to the neighbour at 3, rounded to 0; 5 - 3 >= 2: one unit to it.
  EXPECT_EQ(balance({StrategyKind::besteffort, 4, true}, 5, {4, 3}), (std::vector<double>{0, 1}));
  // Difference of 1: nothing to gain, nothing sent.
  EXPECT_EQ(balance({StrategyKind::besteffort, 1, true}, 5, {4}), (std::vector<double>{0}));
}

TEST(Strategy, NegligibleRealTransfersAreDropped) {
  EXPECT_EQ(balance({StrategyKind::besteffort, 1, false}, 1000, {1000 - 1e-7}), (std::vector<double>{0}));
  EXPECT_EQ(balance({StrategyKind::besteffort, 1, false}, 1000, {990}), (std::vector<double>{5}));
}

TEST(Strategy, Names) {
  EXPECT_EQ(parse_strategy("besteffort"), StrategyKind::besteffort);
  EXPECT_EQ(to_string(parse_strategy("makhoul")), "makhoul");
  EXPECT_THROW(parse_strategy("best-effort"), Error);
  EXPECT_EQ(balance({StrategyKind::none, 1, false}, 100, {0, 0}), (std::vector<double>{0, 0}));
}

Strategy any_strategy() {
  Strategy s;
  s.kind = static_cast<StrategyKind>(*rc::gen::inRange(0, 4));
  s.k = *rc::gen::element(1.0, 2.0, 4.0);
  s.integer = *rc::gen::arbitrary<bool>();
  return s;
}

RC_GTEST_PROP(Strategies, TransfersAreFeasible, ()) {
  const Strategy st = any_strategy();
  const double load = *rc::gen::inRange(0, 200);
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 200)));
  const std::vector<double> nb(raw.begin(), raw.end());
  const auto s = balance(st, load, nb);
  RC_ASSERT(s.size() == nb.size());
  double sum = 0;
  for (std::size_t j = 0; j < s.size(); ++j) {
    RC_ASSERT(s[j] >= 0);
    if (s[j] > 0) RC_ASSERT(nb[j] < load);  // only to less loaded neighbours
    if (st.integer) RC_ASSERT(s[j] == std::floor(s[j]));
    sum += s[j];
  }
  RC_ASSERT(sum <= load + 1e-9);
  // Bertsekas-Tsitsiklis ping-pong condition (Section 2) for "simple", both domains, except DASUD's
  // third integer rule, which forwards a unit across a one-unit edge on purpose. Best effort only
  // guarantees it towards the neighbours it feeds: an unselected lighter neighbour may end heavier.
  const double least = *std::min_element(nb.begin(), nb.end());
  const bool dasud_forward = st.integer && sum == 1 && load - least == 1;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (st.kind == StrategyKind::simple && nb[j] < load && !dasud_forward) RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
    if (st.kind == StrategyKind::besteffort && s[j] > 0 && !dasud_forward) RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
  }
}

// Synchronous rounds on a ring with integer best effort: exact conservation, and the unit step
// brings every edge within 1 unit.
TEST(Integer, SynchronousRingReachesUnitSpread) {
  const int n = 8;
  std::vector<double> x(n, 0);
  x[0] = 803;
  for (int round = 0; round < 2000; ++round) {
    std::vector<double> next = x;
    for (int i = 0; i < n; ++i) {
      const int l = (i + n - 1) % n, r = (i + 1) % n;
      const auto s = balance({StrategyKind::besteffort, 2, true}, x[i], {x[l], x[r]});
      next[i] -= s[0] + s[1];
      next[l] += s[0];
      next[r] += s[1];
    }
    x = next;
  }
  EXPECT_EQ(std::accumulate(x.begin(), x.end(), 0.0), 803);
  for (int i = 0; i < n; ++i) EXPECT_LE(std::abs(x[i] - x[(i + 1) % n]), 1) << i;
}

}  // namespace
}  // namespace hetlb::diffusion
