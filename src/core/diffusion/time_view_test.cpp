// Balancing by time (docs/simulation.md, "Balancing by time"): each rule of Couturier & Giersch taken
// on dates load / speed. Equal speeds give today's decisions bit for bit; unlike speeds keep every
// rule's post-condition in time; integer runs (DASUD's rules in time) stop within the stated band of
// the speed-proportional shares.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetlb/diffusion/convergence.hpp"
#include "hetlb/diffusion/node_state.hpp"
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "strategy_generators.hpp"

namespace hetlb::diffusion {
namespace {

using testing::any_strategy;

std::vector<double> any_loads(bool integer) {
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 2000)));
  std::vector<double> v(raw.begin(), raw.end());
  if (!integer)
    for (double& x : v) x = x / 7.0;
  return v;
}

// Any common speed, not only 1: the rules see speeds relative to the node's own.
RC_GTEST_PROP(TimeView, EqualSpeedsGiveTodaysDecisionsBitForBit, ()) {
  const Strategy st = any_strategy();
  const double load = *rc::gen::inRange(0, 3000) / (st.integer ? 1.0 : 7.0);
  const auto nb = any_loads(st.integer);
  const double speed = *rc::gen::element(1.0, 0.3, 2.5, 30.1);
  const auto by_load = balance(st, load, nb);
  const auto by_time = balance_time(st, load, speed, nb, std::vector<double>(nb.size(), speed));
  RC_ASSERT(by_load == by_time);
}

// The time rules themselves (not only balance_time's shortcut for equal speeds) reduce to the load
// rules when every relative speed is 1.
RC_GTEST_PROP(TimeView, TimeRulesWithUnitSpeedsAreTheLoadRules, ()) {
  const double load = *rc::gen::inRange(0, 3000) / 7.0;
  const auto nb = any_loads(false);
  const std::vector<double> ones(nb.size(), 1.0);
  const double k = *rc::gen::element(1.0, 2.0, 4.0);
  RC_ASSERT(best_effort_transfers(load, nb, k, ones) == best_effort_transfers(load, nb, k));
  RC_ASSERT(simple_transfers(load, nb, false, ones) == simple_transfers(load, nb, false));
  RC_ASSERT(makhoul_transfers(load, nb, ones) == makhoul_transfers(load, nb));
  // (Integer rule 3 is strict in the time path, so it is not compared here: docs/simulation.md.)
}

TEST(TimeView, EqualSpeedsNodeStateDecidesAsToday) {
  const Strategy st{"besteffort", 2, false};
  NodeState a(100, 3, true), b(100, 3, true, Estimates::accounted, Balance::time, 4.7);
  for (int slot = 0; slot < 3; ++slot) {
    a.control_received(slot, Report{10.0 * slot, 0, 0});
    b.control_received(slot, Report{10.0 * slot, 0, 0, 4.7});
  }
  EXPECT_EQ(a.decide(st), b.decide(st));
  EXPECT_EQ(b.report(0).speed, 4.7);
}

// Best effort by hand in time: node x = 12 at speed 1, neighbours 2 (speed 2, date 1) and 9 (speed 1,
// date 9). {date 1}: T = 14 / 3 > 1; {1, 9}: T = 23 / 4 < 9, stop. s = (14/3 - 1) * 2 = 22/3;
// the node ends at 12 - 22/3 = 14/3 and the neighbour at (2 + 22/3) / 2 = 14/3.
TEST(TimeView, BestEffortStepCheckedByHand) {
  const auto s = balance_time({"besteffort", 1, false}, 12, 1, {2, 9}, {2, 1});
  EXPECT_NEAR(s[0], 22.0 / 3, 1e-12);
  EXPECT_EQ(s[1], 0);
  // Speeds scale together: the same decision at node speed 10.
  const auto t = balance_time({"besteffort", 1, false}, 12, 10, {2, 9}, {20, 10});
  EXPECT_NEAR(t[0], 22.0 / 3, 1e-12);
}

// A neighbour with more load but an earlier date receives: by load it would not.
TEST(TimeView, AFastNeighbourWithMoreLoadStillReceives) {
  // Node: 10 units at speed 1 (date 10). Neighbour: 15 units at speed 4 (date 3.75).
  EXPECT_EQ(balance({"simple"}, 10, {15}), (std::vector<double>{0}));
  const auto s = balance_time({"simple"}, 10, 1, {15}, {4});
  // (10 - 3.75) / (1 + 1/4) = 5: the node ends at 5, the neighbour at (15 + 5) / 4 = 5.
  EXPECT_NEAR(s[0], 5, 1e-12);
}

// Makhoul in time feeds a neighbour faster than its degree: node 12 units at speed 1 (date 12), one
// neighbour with 4 units at speed 6.4 (date 0.625), N = 1: the amount that equalises is
// 11.375 / (1 + 1 / 6.4), and Makhoul sends 2 / (N + 1) = all of it; both end at one date.
TEST(TimeView, MakhoulFeedsANeighbourMuchFasterThanItsDegree) {
  const auto s = balance_time({"makhoul"}, 12, 1, {4}, {6.4});
  ASSERT_GT(s[0], 0);
  EXPECT_NEAR(12 - s[0], (4 + s[0]) / 6.4, 1e-12);
  // Four neighbours, one of them 6.4 times faster and idle: it still gets its share.
  const auto t = balance_time({"makhoul"}, 100, 1, {100, 100, 100, 0}, {1, 1, 1, 6.4});
  EXPECT_GT(t[3], 0);
}

TEST(TimeView, BadSpeedsAreRefused) {
  const Strategy st;
  for (double bad : {0.0, -1.0, std::nan(""), static_cast<double>(INFINITY)}) {
    EXPECT_THROW(balance_time(st, 10, bad, {1}, {1}), Error);
    EXPECT_THROW(balance_time(st, 10, 1, {1}, {bad}), Error);
    NodeState n(10, 1, false, Estimates::accounted, Balance::time);
    EXPECT_THROW(n.set_speed(bad), Error);
    EXPECT_THROW(n.control_received(0, Report{1, 0, 0, bad}), Error);
  }
  EXPECT_THROW(balance_time(st, 10, 1, {1, 2}, {1}), Error);
  EXPECT_THROW(balance_time(st, 10, 1e-300, {1}, {1e300}), Error);  // the ratio overflows
  EXPECT_EQ(parse_balance("time"), Balance::time);
  EXPECT_EQ(to_string(parse_balance("load")), "load");
  EXPECT_THROW(parse_balance("speed"), Error);
}

// Post-conditions in time, every rule: transfers >= 0 and within the load, only to neighbours with
// an earlier date; best effort (k = 1) leaves the node and every receiver at one common date; simple
// keeps the node's date at or above every earlier neighbour's (the ping-pong condition); Makhoul keeps
// it at or above every receiver's.
RC_GTEST_PROP(TimeView, PostConditionsHoldInTime, ()) {
  Strategy st = any_strategy();
  st.integer = false;
  const double load = *rc::gen::inRange(1, 3000) / 7.0;
  const auto nb = any_loads(false);
  std::vector<double> sp(nb.size());
  for (double& s : sp) s = *rc::gen::inRange(1, 64) / 8.0;
  const double own = *rc::gen::inRange(1, 64) / 8.0;
  const auto s = balance_time(st, load, own, nb, sp);
  RC_ASSERT(s.size() == nb.size());
  double sum = 0;
  for (std::size_t j = 0; j < s.size(); ++j) {
    RC_ASSERT(s[j] >= 0);
    if (s[j] > 0) RC_ASSERT(nb[j] / sp[j] < load / own * (1 + 1e-12));
    sum += s[j];
  }
  RC_ASSERT(sum <= load * (1 + 1e-12));
  const double node_after = (load - sum) / own;
  const double tol = 1e-9 * (1 + load / own);
  for (std::size_t j = 0; j < s.size(); ++j) {
    const double after = (nb[j] + s[j]) / sp[j];
    if (st.name() == "besteffort" && st.param("k") == 1 && s[j] > 0) RC_ASSERT(std::abs(node_after - after) <= tol);
    if (st.name() == "besteffort" && s[j] > 0) RC_ASSERT(node_after >= after - tol);
    if (st.name() == "makhoul" && s[j] > 0) RC_ASSERT(node_after >= after - tol);
    // (Lighter by more than rounding: the rule compares dates in the node's units, this test in seconds.)
    if (st.name() == "simple" && nb[j] / sp[j] < load / own * (1 - 1e-12) && st.param("residue_equal") == 0)
      RC_ASSERT(node_after >= after - tol);
  }
}

// Integer load in time: random-order sweeps of single decisions (as asynchronous nodes make them)
// stop; load is conserved exactly; no rule fires, so for every node i and every neighbour j with an
// earlier date, T_i - T_j < 1 / s_i + 1 / s_m (m: i's earliest neighbour); hence any node's date is
// within D * 2 / s_min of every other's and |x_i - share_i| < s_i * 2 D / s_min (D: diameter).
RC_GTEST_PROP(TimeView, IntegerRunsStopWithinTheBandOfTheShares, ()) {
  const std::string shape = *rc::gen::element<std::string>("line", "ring", "torus", "hypercube");
  const int n = shape == "hypercube" ? *rc::gen::element(4, 8, 16, 32)
                : shape == "torus"   ? *rc::gen::element(4, 9, 16, 25)
                                     : *rc::gen::inRange(3, 24);
  const Topology t = make_topology(shape, n);
  const Strategy st{*rc::gen::element("besteffort", "makhoul", "simple"),
                    *rc::gen::element(1.0, 2.0, 4.0), true};
  std::vector<double> speed(n);
  for (double& s : speed) s = *rc::gen::element(1.0, 1.5, 2.0, 4.0, 6.4);
  std::vector<double> x(n, 0.0);
  if (*rc::gen::arbitrary<bool>())
    x[0] = 500.0 * n;
  else
    for (double& v : x) v = *rc::gen::inRange(0, 1000);
  const double total = std::accumulate(x.begin(), x.end(), 0.0);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::uint64_t state = *rc::gen::inRange<std::uint64_t>(1, 1000);
  bool stopped = false;
  for (int sweep = 0; sweep < 200000 && !stopped; ++sweep) {
    for (int k = n - 1; k > 0; --k) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      std::swap(order[k], order[(state >> 33) % (k + 1)]);
    }
    stopped = true;
    for (int i : order) {
      std::vector<double> nb, sp;
      for (int j : t.neighbours[i]) nb.push_back(x[j]), sp.push_back(speed[j]);
      const auto tr = balance_time(st, x[i], speed[i], nb, sp);
      // 96 sum x^2 / s over i's domain (the only loads that move), exact: 96 / s is a whole number for
      // every speed drawn above. Every move lowers it (docs/simulation.md).
      const auto phi = [&] {
        double v = x[i] * x[i] * std::round(96 / speed[i]);
        for (int a : t.neighbours[i]) v += x[a] * x[a] * std::round(96 / speed[a]);
        return v;
      };
      const double before = phi();
      for (std::size_t p = 0; p < tr.size(); ++p) {
        RC_ASSERT(tr[p] == std::floor(tr[p]));
        if (tr[p] <= 0) continue;
        x[i] -= tr[p];
        x[t.neighbours[i][p]] += tr[p];
        stopped = false;
      }
      // Strictly in the time path; a neighbourhood of equal speeds takes DASUD's load rules, whose
      // rule 3 may swap a unit without changing phi.
      const bool alike = std::all_of(sp.begin(), sp.end(), [&](double v) { return v == speed[i]; });
      if (std::any_of(tr.begin(), tr.end(), [](double v) { return v > 0; })) {
        const double after = phi();
        const bool fell = alike ? after <= before : after < before;
        RC_ASSERT(fell);
      }
    }
  }
  RC_ASSERT(stopped);
  RC_ASSERT(std::accumulate(x.begin(), x.end(), 0.0) == total);
  const double s_min = *std::min_element(speed.begin(), speed.end());
  for (int i = 0; i < n; ++i) {
    double earliest_unit = 0, earliest = INFINITY;
    for (int j : t.neighbours[i])
      if (x[j] / speed[j] < earliest) earliest = x[j] / speed[j], earliest_unit = 1 / speed[j];
    for (int j : t.neighbours[i])
      if (x[j] / speed[j] < x[i] / speed[i]) RC_ASSERT(x[i] / speed[i] - x[j] / speed[j] < 1 / speed[i] + earliest_unit + 1e-9);
  }
  const auto share = target_shares(total, speed);
  const int d = diameter(t);
  for (int i = 0; i < n; ++i) RC_ASSERT(std::abs(x[i] - share[i]) < speed[i] * 2 * d / s_min + 1e-9);
}

TEST(TargetShares, ProportionalToSpeedsAndExactForEqualSpeeds) {
  EXPECT_EQ(target_shares(100, {1, 1, 2, 4}), (std::vector<double>{12.5, 12.5, 25, 50}));
  for (double total : {1000.0, 817101.0, 1.0 / 3}) {
    const auto s = target_shares(total, std::vector<double>(7, 1.0));
    for (double v : s) EXPECT_EQ(v, total / 7);
  }
  EXPECT_THROW(target_shares(1, {1, 0}), Error);
  EXPECT_THROW(target_shares(1, {1e308, 1e308}), Error);
  ConvergenceTracker tracker(target_shares(100, {1, 3}), 2);
  EXPECT_TRUE(tracker.in_band(0, 25.2));
  EXPECT_FALSE(tracker.in_band(1, 25.2));
  EXPECT_TRUE(tracker.in_band(1, 74.3));
  tracker.record(0, 25, 1);
  tracker.record(1, 75, 1);
  tracker.record(0, 25, 2);
  tracker.record(1, 75, 2);
  EXPECT_TRUE(tracker.all_converged());
}

}  // namespace
}  // namespace hetlb::diffusion
