// Iterative ring applications: the offline optimum against all redistribution subsets, the runs'
// times against a direct recomputation with the planner, conservation of items, policy sanity, bad input.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>

#include "hetlb/error.hpp"
#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/drift_plan_cost.hpp"
#include "hetlb/ring/offline_optimum.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/redistribution_policy.hpp"

using namespace hetlb;
using namespace hetlb::ring;

namespace {

struct Instance {
  IterativeApp app;
  std::unique_ptr<Drift> drift;
};

Instance random_instance(std::uint64_t seed, std::size_t n) {
  std::mt19937_64 g(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  Instance in;
  IterativeApp& a = in.app;
  const bool bidirectional = pick(0, 2) == 0, homogeneous = pick(0, 1) == 0;
  for (std::size_t i = 0; i < n; ++i) {
    a.ring.loads.push_back(pick(0, 3) == 0 ? 0 : pick(1, 12));
    a.ring.succ_cost.push_back(homogeneous ? 1.0 : pick(1, 4) * 0.5);
    if (bidirectional) a.ring.pred_cost.push_back(homogeneous ? 1.0 : pick(1, 4) * 0.5);
    a.speeds.push_back(pick(0, 1) ? 1.0 : pick(1, 6) * 0.5);
  }
  a.ring.targets = a.ring.loads;
  a.compute_cost = std::pow(10.0, pick(-2, 1));
  if (pick(0, 1)) {
    const std::size_t width = static_cast<std::size_t>(pick(1, static_cast<int>(n)));
    const Count height = pick(1, 8);
    a.ring.loads = window_initial_loads(a.ring.loads, width, height);
    in.drift = window_drift(n, width, height, pick(1, 8) * 0.25);
  } else {
    in.drift = walk_drift(n, pick(1, 4), seed);
  }
  return in;
}

Count sum(const std::vector<Count>& v) { return std::accumulate(v.begin(), v.end(), Count{0}); }

}  // namespace

RC_GTEST_PROP(RingIterative, OfflineOptimumIsTheBestRedistributionSubset, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(2, 6);
  const std::size_t N = *rc::gen::inRange<std::size_t>(1, 9);
  const Instance in = random_instance(*rc::gen::arbitrary<std::uint64_t>(), n);
  double brute = std::numeric_limits<double>::infinity();
  for (std::size_t mask = 0; mask < (std::size_t{1} << N); ++mask) {
    std::vector<std::size_t> at;
    for (std::size_t t = 0; t < N; ++t)
      if (mask >> t & 1) at.push_back(t);
    auto p = fixed_policy(at);
    brute = std::min(brute, run_iterations(in.app, *in.drift, *p, N).total_time);
  }
  const RunResult opt = offline_optimum(in.app, *in.drift, N);
  RC_ASSERT(std::abs(opt.total_time - brute) <= 1e-9 * std::max(1.0, brute));
}

RC_GTEST_PROP(RingIterative, RunTimesAgreeWithADirectRecomputation, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(2, 9);
  const std::size_t N = *rc::gen::inRange<std::size_t>(1, 40);
  const Instance in = random_instance(*rc::gen::arbitrary<std::uint64_t>(), n);
  const std::vector<std::string> specs{"never", "every:1", "every:3", "threshold:1.2", "model"};
  auto policy = make_policy(*rc::gen::elementOf(specs));
  const RunResult r = run_iterations(in.app, *in.drift, *policy, N, {true, true});
  const Count total = sum(in.app.ring.loads);
  const std::vector<Count> targets = balanced_targets(total, in.app.speeds);
  double sum_s = 0;
  for (double s : in.app.speeds) sum_s += s;
  const double ideal = in.app.compute_cost * static_cast<double>(total) / sum_s;
  double compute = 0, imbalance = 0, redistribution = 0;
  Count moved = 0;
  std::vector<Count> loads = in.app.ring.loads;
  Delta delta;
  std::size_t next = 0;
  for (std::size_t t = 0; t < N; ++t) {
    if (next < r.redistributed_at.size() && r.redistributed_at[next] == t) {  // the planner itself
      ++next;
      Ring ring = in.app.ring;
      ring.loads = loads;
      ring.targets = targets;
      const Plan plan = plan_redistribution(ring, iterative_plan_options(ring.size()));
      RC_ASSERT(plan.final_loads == targets);
      redistribution += plan.time;
      for (const Transfer& x : plan.transfers) moved += x.items;
      loads = targets;
    }
    RC_ASSERT(r.loads[t] == loads);
    RC_ASSERT(sum(loads) == total);  // conservation through drift and redistributions
    double top = 0;
    for (std::size_t i = 0; i < n; ++i)
      top = std::max(top, in.app.compute_cost * static_cast<double>(loads[i]) / in.app.speeds[i]);
    RC_ASSERT(std::abs(r.iteration_times[t] - top) <= 1e-9 * std::max(1.0, top));
    compute += top;
    imbalance += top - ideal;
    in.drift->delta(t, delta);
    apply_delta(loads, delta);
  }
  const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); };
  RC_ASSERT(near(r.compute_time, compute));
  RC_ASSERT(near(r.imbalance_time, imbalance));
  RC_ASSERT(near(r.redistribution_time, redistribution));
  RC_ASSERT(near(r.total_time, compute + redistribution));
  RC_ASSERT(r.data_moved == moved);
  RC_ASSERT(r.redistributions == r.redistributed_at.size());
}

RC_GTEST_PROP(RingIterative, CostEqualsThePlannersTime, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(2, 30);
  Instance in = random_instance(*rc::gen::arbitrary<std::uint64_t>(), n);
  const std::vector<Count> targets = balanced_targets(sum(in.app.ring.loads), in.app.speeds);
  RC_ASSERT(sum(targets) == sum(in.app.ring.loads));
  Ring ring = in.app.ring;
  ring.targets = targets;
  const Plan plan = plan_redistribution(ring, iterative_plan_options(ring.size()));
  const RedistributionCost c = redistribution_cost(in.app.ring, in.app.ring.loads, targets);
  Count moved = 0;
  for (const Transfer& x : plan.transfers) moved += x.items;
  RC_ASSERT(std::abs(c.time - plan.time) <= 1e-9 * std::max(1.0, plan.time));
  RC_ASSERT(c.moved == moved);
}

RC_GTEST_PROP(RingIterative, ApplyDeltaKeepsTheTotalAndNoNegativeLoad, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(2, 12);
  std::vector<Count> loads = *rc::gen::container<std::vector<Count>>(n, rc::gen::inRange<Count>(0, 10));
  std::vector<Count> u = *rc::gen::container<std::vector<Count>>(n, rc::gen::inRange<Count>(-15, 16));
  Delta d;
  for (std::size_t i = 0; i < n; ++i) d.push_back({i, u[i] - u[(i + n - 1) % n]});
  const Count before = sum(loads);
  apply_delta(loads, d);
  RC_ASSERT(sum(loads) == before);
  for (Count x : loads) RC_ASSERT(x >= 0);
}

TEST(RingIterative, PolicySanity) {
  const Instance in = random_instance(7, 6);
  const std::size_t N = 25;
  auto never = make_policy("never");
  EXPECT_EQ(run_iterations(in.app, *in.drift, *never, N).redistributions, 0u);
  auto every = make_policy("every:1");
  EXPECT_EQ(run_iterations(in.app, *in.drift, *every, N).redistributions, N);
  auto every4 = make_policy("every:4");
  EXPECT_EQ(run_iterations(in.app, *in.drift, *every4, N).redistributions, 7u);  // 0, 4, ..., 24
  const RunResult opt = offline_optimum(in.app, *in.drift, N);
  for (const std::string spec : {"never", "every:1", "every:4", "threshold:1.5", "model"}) {
    auto p = make_policy(spec);
    EXPECT_GE(run_iterations(in.app, *in.drift, *p, N).total_time, opt.total_time * (1 - 1e-12)) << spec;
  }
}

// A run that keeps nothing per iteration (the command line's long runs) sums the same.
TEST(RingIterative, RunsWithoutRecordsSumTheSame) {
  const Instance in = random_instance(11, 7);
  const std::size_t N = 60;
  for (const std::string spec : {"never", "every:1", "every:4", "threshold:1.5", "model"}) {
    auto kept = make_policy(spec), summed = make_policy(spec);
    const RunResult a = run_iterations(in.app, *in.drift, *kept, N);
    const RunResult b = run_iterations(in.app, *in.drift, *summed, N, {false, false, false});
    EXPECT_EQ(a.redistributed_at.size(), a.redistributions) << spec;
    EXPECT_TRUE(b.redistributed_at.empty()) << spec;
    EXPECT_EQ(a.redistributions, b.redistributions) << spec;
    EXPECT_EQ(a.total_time, b.total_time) << spec;
    EXPECT_EQ(a.data_moved, b.data_moved) << spec;
  }
}

// A run stopped by RunOptions::stop (SIGINT at the command line) ends between two iterations, at a
// multiple of kStopCheckIterations, with the sums of the iterations done: a run of that many iterations'.
TEST(RingIterative, StoppedRunSumsTheIterationsDone) {
  const Instance in = random_instance(13, 6);
  const std::size_t N = 10 * kStopCheckIterations, done = 3 * kStopCheckIterations;
  for (const std::string spec : {"never", "every:4", "threshold:1.5"}) {  // policies blind to the horizon
    std::size_t asked = 0;
    RunOptions stopping;
    stopping.stop = [&] { return ++asked == 3; };
    auto p = make_policy(spec), q = make_policy(spec);
    const RunResult a = run_iterations(in.app, *in.drift, *p, N, stopping);
    const RunResult b = run_iterations(in.app, *in.drift, *q, done);
    EXPECT_EQ(asked, 3u) << spec;
    EXPECT_EQ(a.iterations_done, done) << spec;
    EXPECT_EQ(b.iterations_done, done) << spec;
    EXPECT_EQ(a.redistributions, b.redistributions) << spec;
    EXPECT_EQ(a.total_time, b.total_time) << spec;
    EXPECT_EQ(a.imbalance_time, b.imbalance_time) << spec;
    EXPECT_EQ(a.data_moved, b.data_moved) << spec;
  }
  auto never = make_policy("never");
  RunOptions going_on;
  going_on.stop = [] { return false; };
  EXPECT_EQ(run_iterations(in.app, *in.drift, *never, N, going_on).iterations_done, N);
}

// A program that follows the model iteration by iteration (hetlb-ring-iterations) sees every iteration
// once, in order, with the loads and redistributions a recorded run keeps, while nothing is kept.
TEST(RingIterative, EachIterationIsSeenAsARecordedRunKeepsIt) {
  const Instance in = random_instance(13, 6);
  const std::size_t N = 40;
  for (const std::string spec : {"never", "every:3", "threshold:1.5", "model"}) {
    auto kept = make_policy(spec), followed = make_policy(spec);
    const RunResult a = run_iterations(in.app, *in.drift, *kept, N, {false, true});
    RunOptions options{false, false, false};
    std::vector<std::vector<Count>> seen;
    std::vector<std::size_t> redistributed_at;
    options.each_iteration = [&](std::size_t t, bool redistributed, const std::vector<Count>& loads) {
      EXPECT_EQ(t, seen.size()) << spec;
      seen.push_back(loads);
      if (redistributed) redistributed_at.push_back(t);
    };
    const RunResult b = run_iterations(in.app, *in.drift, *followed, N, options);
    EXPECT_EQ(seen, a.loads) << spec;
    EXPECT_EQ(redistributed_at, a.redistributed_at) << spec;
    EXPECT_TRUE(b.loads.empty() && b.redistributed_at.empty()) << spec;
    EXPECT_EQ(a.total_time, b.total_time) << spec;
  }
}

TEST(RingIterative, WindowTravelsRoundTheRing) {
  auto d = window_drift(8, 2, 5, 0.5);
  std::vector<Count> loads = window_initial_loads(std::vector<Count>(8, 1), 2, 5);
  Delta delta;
  for (std::size_t t = 0; t < 16; ++t) d->delta(t, delta), apply_delta(loads, delta);
  EXPECT_EQ(loads, window_initial_loads(std::vector<Count>(8, 1), 2, 5));  // 8 steps: once round
  d->delta(1, delta);
  ASSERT_EQ(delta.size(), 2u);
  EXPECT_EQ(delta[0], (std::pair<std::size_t, Count>{0, -5}));
  EXPECT_EQ(delta[1], (std::pair<std::size_t, Count>{2, 5}));
}

TEST(RingIterative, BadInputIsOneLine) {
  for (const std::string spec : {"every:0", "every:1.5", "threshold:0.9", "sometimes", "every:", "threshold:x"}) {
    try {
      make_policy(spec);
      ADD_FAILURE() << spec;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  const std::string path = std::string(HETLB_BINARY_DIR) + "/ring_iterative_trace.txt";
  const auto refused = [&](const std::string& text, const std::string& needle) {
    std::ofstream(path) << text;
    try {
      load_trace_file(path, 3, 2);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("1 2 3\n1 2\n", "2 loads, expected 3");
  refused("1 2 3\n1 -2 7\n", "no negative load");
  refused("1 2 3\n1 2 4\n", "sum to 7");
  refused("1 2 3\n", "at least 2");
  std::ofstream(path) << "# loads\n1,2,3\n3 2 1\n";
  EXPECT_EQ(load_trace_file(path, 3, 2).size(), 2u);
  std::remove(path.c_str());
  const Instance in = random_instance(3, 64);
  EXPECT_THROW(offline_optimum(in.app, *in.drift, 1001), Error);
}

// Without any drift the model is the rent-or-buy rule: it redistributes before the first iteration t
// with min(t + 1, N - t) e > C (e the excess, C the plan's time), once, and a second run of the same policy
// object repeats the first.
TEST(RingIterative, ModelWithoutDriftIsRentOrBuy) {
  IterativeApp app;
  app.ring.loads = {40, 10, 10, 10, 10, 10};
  app.ring.succ_cost.assign(6, 1.0);
  app.ring.targets = app.ring.loads;
  app.speeds.assign(6, 1.0);
  const std::vector<std::vector<Count>> rows(30, app.ring.loads);
  for (const double w : {0.05, 0.3, 1.0, 30.0}) {
    app.compute_cost = w;
    auto drift = trace_drift(rows);
    const double e = w * (40 - 15), c = redistribution_cost(app.ring, app.ring.loads, {15, 15, 15, 15, 15, 15}).time;
    ASSERT_GT(c, 0);
    std::size_t expected = 30;
    for (std::size_t t = 0; t < 30 && expected == 30; ++t)
      if (static_cast<double>(std::min<std::size_t>(t + 1, 30 - t)) * e > c) expected = t;
    auto model = make_policy("model");
    for (int run = 0; run < 2; ++run) {
      const RunResult r = run_iterations(app, *drift, *model, 30);
      if (expected == 30) {
        EXPECT_EQ(r.redistributions, 0u) << w;
      } else {
        ASSERT_EQ(r.redistributed_at, std::vector<std::size_t>{expected}) << w;
      }
    }
  }
}

// The plan's time after one drift from the targets, from the drift's entries (the model policy's
// "every iteration" counterfactual), equals redistribution_cost's on the whole ring: random rings
// (uni- and bidirectional, targets of 0 included), sparse and dense drifts, removals beyond a load.
RC_GTEST_PROP(RingIterative, DriftPlanCostEqualsTheWholeRingsPlanTime, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(2, 40);
  std::mt19937_64 g(*rc::gen::arbitrary<std::uint64_t>());
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  Ring links;
  std::vector<Count> targets;
  const bool bidirectional = pick(0, 3) == 0, empty_targets = pick(0, 3) == 0;
  for (std::size_t i = 0; i < n; ++i) {
    links.succ_cost.push_back(pick(1, 8) * 0.25);
    if (bidirectional) links.pred_cost.push_back(pick(1, 8) * 0.25);
    targets.push_back(empty_targets && pick(0, 4) == 0 ? 0 : pick(1, 30));
  }
  links.loads = links.targets = targets;
  DriftPlanCost cost(links, targets);
  RC_ASSERT(cost.closed_form() == (!bidirectional && std::ranges::all_of(targets, [](Count x) { return x >= 1; })));
  for (int round = 0; round < 20; ++round) {
    Delta delta;
    const std::size_t entries = pick(0, 1) ? n : static_cast<std::size_t>(pick(0, 4));
    Count net = 0;
    for (std::size_t k = 0; k < entries; ++k) {
      const std::size_t i = entries == n ? k : static_cast<std::size_t>(pick(0, static_cast<int>(n) - 1));
      if (entries != n && std::ranges::any_of(delta, [&](const auto& e) { return e.first == i; })) continue;
      const Count d = pick(-40, 40);
      delta.push_back({i, d});
      net += d;
    }
    if (!delta.empty()) delta.back().second -= net;  // zero-sum
    std::vector<Count> loads = targets;
    apply_delta(loads, delta);
    RC_ASSERT(std::abs(cost.time(delta) - redistribution_cost(links, loads, targets).time) <= 1e-9);
  }
}
