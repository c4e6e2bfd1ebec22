// Theorems W1 and W2 (docs/weighted-items.md) against exhaustive search on small instances, and
// unit weights against RR-4770's planner.
#include <functional>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/weighted.hpp"
#include "test_instances.hpp"

namespace hetlb::scatter {
using namespace testing;

namespace {

WeightedItems gen_items(Count n, bool with_sizes) {
  WeightedItems it;
  for (Count k = 0; k < n; ++k) it.work.push_back(*rc::gen::inRange(0, 17) / 4.0);
  if (with_sizes)
    for (Count k = 0; k < n; ++k) it.size.push_back(*rc::gen::inRange(0, 9) / 2.0);
  return it;
}

// Every split of items 0..n-1 into consecutive ranges, in send order.
double brute_contiguous(const Problem& pb, const WeightedItems& it) {
  double best = INFINITY;
  std::vector<Count> counts(pb.size(), 0);
  std::function<void(std::size_t, Count)> rec = [&](std::size_t i, Count left) {
    if (i + 1 == pb.size()) {
      counts[i] = left;
      best = std::min(best, evaluate_weighted(pb, it, contiguous_owner(counts)).makespan);
      return;
    }
    for (Count c = 0; c <= left; ++c) {
      counts[i] = c;
      rec(i + 1, left - c);
    }
  };
  rec(0, it.count());
  return best;
}

// Every assignment of items to processors.
double brute_any(const Problem& pb, const WeightedItems& it) {
  double best = INFINITY;
  std::vector<std::size_t> owner(it.work.size(), 0);
  std::function<void(std::size_t)> rec = [&](std::size_t k) {
    if (k == owner.size()) {
      best = std::min(best, evaluate_weighted(pb, it, owner).makespan);
      return;
    }
    for (std::size_t i = 0; i < pb.size(); ++i) {
      owner[k] = i;
      rec(k + 1);
    }
  };
  rec(0);
  return best;
}

void check_contiguous(const Problem& pb, const WeightedItems& it) {
  const WeightedPlan plan = solve_weighted_contiguous(pb, it);
  const double opt = brute_contiguous(pb, it);
  RC_ASSERT(plan.optimal);
  RC_ASSERT(same_time(plan.makespan, opt));
  RC_ASSERT(plan.lower_bound <= opt + 1e-9);
  RC_ASSERT(same_time(evaluate_weighted(pb, it, contiguous_owner(plan.items)).makespan, plan.makespan));
  Count start = 0;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    RC_ASSERT(plan.first[i] == start);
    start += plan.items[i];
  }
  RC_ASSERT(start == it.count());
}

Problem with_items(Problem pb, Count n) {
  pb.items = n;
  return pb;
}

}  // namespace

RC_GTEST_PROP(WeightedContiguous, LinearBandwidthOrder, ()) {
  const Problem pb = *gen_problem(CostKind::Linear, 4, 9, true);
  check_contiguous(pb, gen_items(pb.items, *rc::gen::arbitrary<bool>()));
}
RC_GTEST_PROP(WeightedContiguous, LinearAnyOrder, ()) {
  const Problem pb = *gen_problem(CostKind::Linear, 4, 9, false);
  check_contiguous(pb, gen_items(pb.items, *rc::gen::arbitrary<bool>()));
}
RC_GTEST_PROP(WeightedContiguous, Affine, ()) {
  const Problem pb = *gen_problem(CostKind::Affine, 4, 9, false);
  check_contiguous(pb, gen_items(pb.items, *rc::gen::arbitrary<bool>()));
}
RC_GTEST_PROP(WeightedContiguous, Tables, ()) {
  const Problem pb = *gen_problem(CostKind::Table, 4, 9, false);
  check_contiguous(pb, gen_items(pb.items, *rc::gen::arbitrary<bool>()));
}
RC_GTEST_PROP(WeightedContiguous, DecreasingCosts, ()) {
  const Problem pb = *gen_problem(CostKind::NonMonotone, 3, 8, false);
  check_contiguous(pb, gen_items(pb.items, false));
}

// Unit weights are RR-4770's model: the same optimum as the count planner, for every cost kind.
RC_GTEST_PROP(WeightedContiguous, UnitWeightsMatchTheCountOptimum, ()) {
  const Problem pb = *gen_problem(CostKind::Affine, 5, 30, *rc::gen::arbitrary<bool>());
  WeightedItems it;
  it.work.assign(static_cast<std::size_t>(pb.items), 1.0);
  const Plan counted = solve_exact(pb);
  RC_PRE(counted.optimal);
  RC_ASSERT(same_time(solve_weighted_contiguous(pb, it).makespan, counted.makespan));
}

RC_GTEST_PROP(WeightedAny, BetweenTheOptimumAndTheContiguousOptimum, ()) {
  const Problem pb = with_items(*gen_problem(CostKind::Linear, 3, 6, *rc::gen::arbitrary<bool>()), *rc::gen::inRange(1, 7));
  const WeightedItems it = gen_items(pb.items, *rc::gen::arbitrary<bool>());
  const WeightedPlan any = solve_weighted_any(pb, it);
  const double opt = brute_any(pb, it);
  RC_ASSERT(any.makespan >= opt - 1e-9);
  RC_ASSERT(any.lower_bound <= opt + 1e-9);
  RC_ASSERT(any.makespan <= brute_contiguous(pb, it) + 1e-9);
  RC_ASSERT(same_time(evaluate_weighted(pb, it, any.owner).makespan, any.makespan));
  if (any.guarantee) RC_ASSERT(any.makespan <= any.lower_bound + *any.guarantee + 1e-9);
}

// Theorem W2's bound, sizes proportional to work (here: comm by weight), on larger instances.
RC_GTEST_PROP(WeightedAny, GuaranteeWithSizesFollowingWork, ()) {
  const Problem pb = with_items(*gen_problem(CostKind::Linear, 6, 1, true), *rc::gen::inRange(1, 200));
  WeightedItems it = gen_items(pb.items, false);
  it.size = it.work;
  RC_PRE(std::any_of(it.work.begin(), it.work.end(), [](double w) { return w > 0; }));
  const WeightedPlan any = solve_weighted_any(pb, it);
  RC_ASSERT(any.guarantee.has_value());
  RC_ASSERT(any.makespan <= any.lower_bound + *any.guarantee + 1e-9);
  RC_ASSERT(any.makespan <= any.contiguous_makespan);
}

TEST(WeightedItems, RefusesBadValuesNamingTheItem) {
  WeightedItems it;
  it.work = {1, -2, 3};
  EXPECT_THROW(
      {
        try {
          it.check();
        } catch (const Error& e) {
          EXPECT_STREQ(e.what(), "weights: item 1: -2 is not a finite number >= 0");
          throw;
        }
      },
      Error);
  it.work = {1, 2};
  it.size = {1};
  EXPECT_THROW(it.check(), Error);
  EXPECT_THROW(parse_layout("strided"), Error);
}

// Heavy items at the front: equal counts overload the first processor, the weighted plan does not.
TEST(WeightedContiguous, FollowsTheWorkNotTheCount) {
  Problem pb;
  for (int i = 0; i < 3; ++i) {
    pb.names.push_back("P" + std::to_string(i));
    pb.platform_index.push_back(static_cast<std::size_t>(i));
    pb.compute.push_back(CostFunction::linear(1.0));
    pb.comm.push_back(CostFunction::linear(0.0));
  }
  WeightedItems it;
  for (int k = 0; k < 300; ++k) it.work.push_back(k < 100 ? 10.0 : 1.0);
  pb.items = it.count();
  const WeightedPlan plan = solve_weighted_contiguous(pb, it);
  EXPECT_TRUE(plan.optimal);
  EXPECT_NEAR(plan.makespan, 400.0, 1e-9);  // 1,200 units of work over 3 unit-speed processors
  EXPECT_EQ(plan.items, (std::vector<Count>{40, 40, 220}));  // each takes the longest range
}

}  // namespace hetlb::scatter
