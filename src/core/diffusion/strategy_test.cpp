// Strategies: hand-checked steps against the paper's equations, and properties of every rule.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/error.hpp"
#include "strategy_generators.hpp"

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
  EXPECT_EQ(balance(Strategy{"simple"}, x, {1373, residue_below}), (std::vector<double>{0, 0}));
  Strategy tolerant{"simple"};
  tolerant.set("residue_equal", 1);
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
  const auto s = balance({"besteffort", 1, true}, 10, {9, 2, 12, 4});
  EXPECT_EQ(s, (std::vector<double>{0, 3, 0, 1}));
}

TEST(Integer, UnitStepWhenEverythingRoundsToZero) {
  // k = 4: real transfer 1/4 to the neighbour at 3, rounded to 0; 5 - 3 >= 2: one unit to it.
  EXPECT_EQ(balance({"besteffort", 4, true}, 5, {4, 3}), (std::vector<double>{0, 1}));
  // Difference of 1: nothing to gain, nothing sent.
  EXPECT_EQ(balance({"besteffort", 1, true}, 5, {4}), (std::vector<double>{0}));
}

TEST(Strategy, NegligibleRealTransfersAreDropped) {
  EXPECT_EQ(balance({"besteffort", 1, false}, 1000, {1000 - 1e-7}), (std::vector<double>{0}));
  EXPECT_EQ(balance({"besteffort", 1, false}, 1000, {990}), (std::vector<double>{5}));
}

TEST(Strategy, Names) {
  EXPECT_EQ(Strategy("besteffort").name(), "besteffort");
  EXPECT_EQ(Strategy("makhoul").rule().label, "Makhoul");
  EXPECT_THROW(Strategy("best-effort"), Error);
  EXPECT_EQ(balance({"none", 1, false}, 100, {0, 0}), (std::vector<double>{0, 0}));
}

using testing::any_strategy;

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
    if (st.name() == "simple" && nb[j] < load && !dasud_forward) RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
    if (st.name() == "besteffort" && s[j] > 0 && !dasud_forward) RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
  }
}

// Each registered strategy's own post-condition on decisions by load (real domain), on top of the
// feasibility every rule owes (TransfersAreFeasible). A strategy added to the registry without an
// entry here fails EveryRegisteredStrategyHasItsPropertyTest.
using PostCondition = std::function<void(const Strategy&, double, const std::vector<double>&, const std::vector<double>&)>;

const std::map<std::string, PostCondition>& post_conditions() {
  static const std::map<std::string, PostCondition> checks{
      {"none", [](const Strategy&, double, const std::vector<double>&, const std::vector<double>& s) {
         for (double x : s) RC_ASSERT(x == 0.0);
       }},
      // Ping-pong condition (Section 2) towards every lighter neighbour; one receiver at most.
      {"simple", [](const Strategy& st, double load, const std::vector<double>& nb, const std::vector<double>& s) {
         const double sum = std::accumulate(s.begin(), s.end(), 0.0);
         RC_ASSERT(std::count_if(s.begin(), s.end(), [](double x) { return x > 0; }) <= 1);
         if (st.param("residue_equal") != 0) return;
         for (std::size_t j = 0; j < s.size(); ++j)
           if (nb[j] < load) RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
       }},
      // Each receiver gets at most (x_i - x_j) / (N + 1) and stays at or below the node.
      {"makhoul", [](const Strategy&, double load, const std::vector<double>& nb, const std::vector<double>& s) {
         const double sum = std::accumulate(s.begin(), s.end(), 0.0);
         for (std::size_t j = 0; j < s.size(); ++j)
           if (s[j] > 0) {
             RC_ASSERT(s[j] <= (load - nb[j]) / (nb.size() + 1.0) * (1 + 1e-12));
             RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
           }
       }},
      // Receivers end at or below the node; with k = 1 exactly at the node's new load (the mean).
      {"besteffort", [](const Strategy& st, double load, const std::vector<double>& nb, const std::vector<double>& s) {
         const double sum = std::accumulate(s.begin(), s.end(), 0.0);
         for (std::size_t j = 0; j < s.size(); ++j)
           if (s[j] > 0) {
             RC_ASSERT(load - sum >= nb[j] + s[j] - 1e-9);
             if (st.param("k") == 1) RC_ASSERT(std::abs(load - sum - (nb[j] + s[j])) <= 1e-9 * (1 + load));
           }
       }},
      // Every lighter neighbour gets (x_i - x_j) / (deg + 1), bit for bit (unless negligible).
      {"first_order", [](const Strategy&, double load, const std::vector<double>& nb, const std::vector<double>& s) {
         for (std::size_t j = 0; j < s.size(); ++j) {
           const double expected = nb[j] < load ? (load - nb[j]) / (nb.size() + 1.0) : 0.0;
           RC_ASSERT(s[j] == (expected < kNegligibleTransfer * load ? 0.0 : expected));
         }
       }},
  };
  return checks;
}

TEST(StrategyRegistry, EveryRegisteredStrategyHasItsPropertyTest) {
  std::set<std::string> names;
  for (const Rule* r : builtin_rules()) {
    EXPECT_TRUE(post_conditions().count(r->name)) << "strategy " << r->name << " has no post-condition in strategy_test.cpp";
    EXPECT_TRUE(names.insert(r->name).second) << "strategy " << r->name << " registered twice";
    EXPECT_EQ(&Strategy(r->name).rule(), r);
    EXPECT_FALSE(r->label.empty()) << r->name;
  }
  EXPECT_EQ(post_conditions().size(), names.size()) << "a post-condition for a strategy no longer registered";
}

RC_GTEST_PROP(Strategies, EachRuleKeepsItsOwnPostCondition, ()) {
  const Strategy st = any_strategy(false);
  const double load = *rc::gen::inRange(0, 3000) / 7.0;
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 3000)));
  std::vector<double> nb;
  for (int x : raw) nb.push_back(x / 7.0);
  const auto s = balance(st, load, nb);
  RC_TAG(st.name());
  post_conditions().at(st.name())(st, load, nb, s);
}

TEST(StrategyRegistry, ParametersAreCheckedByNameAndRange) {
  Strategy be("besteffort");
  be.set("k=2.5");
  EXPECT_EQ(be.param("k"), 2.5);
  EXPECT_THROW(be.set("k=0.5"), Error);
  EXPECT_THROW(be.set("k=inf"), Error);
  EXPECT_THROW(be.set("k=two"), Error);
  EXPECT_THROW(be.set("alpha=1"), Error);
  EXPECT_THROW(be.set("k"), Error);
  Strategy simple("simple", 4);  // k does not apply to simple: ignored
  EXPECT_EQ(simple.describe(), "simple");
  simple.set("residue_equal=true");
  EXPECT_EQ(simple.describe(), "simple residue_equal");
  EXPECT_THROW(simple.set("residue_equal=0.5"), Error);
  EXPECT_EQ(Strategy("besteffort", 2).describe(), "besteffort k=2");
  EXPECT_THROW(strategy_of("makhoul", 1, true, {}, false), Error);  // --residue-equal is simple's only
  EXPECT_THROW(strategy_of("makhoul", 0.5, false, {}, false), Error);
  // Every parameter once, whatever the option that sets it; --k only for a strategy with k.
  const auto refusal = [](double k, bool residue_equal, const std::string& name, const std::vector<std::string>& params) {
    try {
      strategy_of(name, k, residue_equal, params, false);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal(1, false, "besteffort", {"k=2", "k=3"}),
            "strategy besteffort: parameter k given twice (k=2 and k=3); expected it once");
  EXPECT_EQ(refusal(2, false, "besteffort", {"k=3"}),
            "strategy besteffort: parameter k given twice (--k 2 and k=3); expected it once");
  EXPECT_EQ(refusal(1, true, "simple", {"residue_equal=0"}),
            "strategy simple: parameter residue_equal given twice (--residue-equal and residue_equal=0); expected it once");
  EXPECT_EQ(refusal(2, false, "makhoul", {}),
            "--k 2: strategy makhoul has no parameter k; expected --k only for a strategy with k (hetlb strategies lists them)");
  EXPECT_EQ(refusal(1, false, "makhoul", {}), "accepted");  // the default k, which every command line passes
  EXPECT_EQ(strategy_of("besteffort", 2, false, {}, false).param("k"), 2);
  EXPECT_EQ(strategy_of("besteffort", 1, false, {"k=3"}, false).param("k"), 3);
  EXPECT_THROW(Strategy("plugin:/nonexistent/libx.so"), Error);
}

// First-order diffusion by hand: x_i = 10, neighbours {4, 12, 1}: deg + 1 = 4, so 6/4 and 9/4.
TEST(FirstOrder, StepCheckedByHand) {
  EXPECT_EQ(balance("first_order", 10, {4, 12, 1}), (std::vector<double>{1.5, 0, 2.25}));
  // Time view: a neighbour twice as fast at load 4 and one half as fast at load 1 both have date 2;
  // deg + 1 = 3: (10 - 2) min(1, 2) / 3 and (10 - 2) min(1, 0.5) / 3.
  const auto t = balance_time("first_order", 10, 1, {4, 1}, {2, 0.5});
  EXPECT_DOUBLE_EQ(t[0], 8.0 / 3);
  EXPECT_DOUBLE_EQ(t[1], 4.0 / 3);
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
      const auto s = balance({"besteffort", 2, true}, x[i], {x[l], x[r]});
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
