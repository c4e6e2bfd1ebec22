// RR-4770 Section 3.2: Algorithms 1 and 2 and the exact planner against exhaustive search.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/exact.hpp"
#include "test_instances.hpp"

namespace hetlb::scatter {
using namespace testing;

namespace {
void check_all(const Problem& pb) {
  const double opt = brute_force(pb);
  const Plan basic = solve_dp_basic(pb);
  RC_ASSERT(same_time(basic.makespan, opt));
  RC_ASSERT(same_time(makespan(pb, basic.items), basic.makespan));
  if (pb.all_non_decreasing()) RC_ASSERT(same_time(solve_dp(pb).makespan, opt));
  ExactOptions options;
  options.dp_fallback = !pb.all_non_decreasing();  // decreasing costs: Algorithm 1 on request only
  const Plan ex = solve_exact(pb, options);
  RC_ASSERT(same_time(ex.makespan, opt));
  RC_ASSERT(ex.optimal);
  Count sum = 0;
  for (Count v : ex.items) {
    RC_ASSERT(v >= 0);
    sum += v;
  }
  RC_ASSERT(sum == pb.items);
}
}  // namespace

RC_GTEST_PROP(BruteForce, LinearBandwidthOrder, ()) { check_all(*gen_problem(CostKind::Linear, 4, 12, true)); }
RC_GTEST_PROP(BruteForce, LinearAnyOrder, ()) { check_all(*gen_problem(CostKind::Linear, 4, 12, false)); }
RC_GTEST_PROP(BruteForce, Affine, ()) { check_all(*gen_problem(CostKind::Affine, 4, 12, false)); }
RC_GTEST_PROP(BruteForce, AffineComputeLinearSortedLinks, ()) {
  check_all(*gen_problem(CostKind::Affine, 4, 12, true));
}
RC_GTEST_PROP(BruteForce, AffineLinksInBandwidthOrder, ()) {
  Problem pb = *gen_problem(CostKind::Affine, 5, 12, true);
  for (std::size_t i = 0; i + 1 < pb.size(); ++i)  // latencies on the sorted links
    pb.comm[i] = CostFunction::affine(*rc::gen::inRange(0, 16) / 4.0, pb.comm[i].per_item());
  RC_ASSERT(exact_fast_path_applies(pb));
  check_all(pb);
}
RC_GTEST_PROP(BruteForce, Table, ()) { check_all(*gen_problem(CostKind::Table, 4, 12, false)); }
RC_GTEST_PROP(BruteForce, TableComputeSortedLinks, ()) { check_all(*gen_problem(CostKind::Table, 4, 12, true)); }
RC_GTEST_PROP(BruteForce, NonMonotoneCostsDpBasic, ()) {
  check_all(*gen_problem(CostKind::NonMonotone, 4, 10, false));
}
// Without --dp-fallback, decreasing costs get the best plan found and a proven lower bound.
RC_GTEST_PROP(BruteForce, NonMonotoneCostsBoundedWithoutFallback, ()) {
  const Problem pb = *gen_problem(CostKind::NonMonotone, 4, 10, false);
  const double opt = brute_force(pb);
  const Plan ex = solve_exact(pb);
  RC_ASSERT(ex.lower_bound <= opt + 1e-9);
  RC_ASSERT(ex.makespan >= opt - 1e-9);
  RC_ASSERT(same_time(makespan(pb, ex.items), ex.makespan));
  RC_ASSERT(ex.optimal == (ex.makespan <= ex.lower_bound));
  if (!ex.optimal) RC_ASSERT(ex.method.find("not proven") != std::string::npos);
}

// A table ending on a decreasing step has a negative asymptotic slope; with a link of the opposite
// slope the relaxation would give an infinite share. The planner must stay within its bounds.
TEST(BruteForce, NegativeAsymptoticSlopeIsNotARelaxation) {
  Problem pb;
  pb.items = 6;
  pb.names = {"P1", "P2"};
  pb.platform_index = {0, 1};
  pb.compute = {CostFunction::table({{1, 1.0}, {2, 0.5}}), CostFunction::linear(1)};
  pb.comm = {CostFunction::linear(0.5), CostFunction::linear(0)};
  const Plan ex = solve_exact(pb);
  const double opt = brute_force(pb);
  EXPECT_LE(ex.lower_bound, opt + 1e-9);
  EXPECT_GE(ex.makespan, opt - 1e-9);
  EXPECT_TRUE(same_time(makespan(pb, ex.items), ex.makespan));
}

// The fast path of `exact` is exercised where it claims to apply.
RC_GTEST_PROP(BruteForce, FastPathAppliesOnSortedLinearLinks, ()) {
  const Problem pb = *gen_problem(CostKind::Table, 5, 10, true);
  RC_ASSERT(exact_fast_path_applies(pb));
  RC_ASSERT(solve_exact(pb).method.find("fallback") == std::string::npos);
}

TEST(DynamicProgramming, RefusesBeyondItsLimits) {
  Problem pb;
  pb.items = 10'000'000;
  for (int i = 0; i < 3; ++i) {
    pb.names.push_back("P");
    pb.platform_index.push_back(0);
    pb.compute.push_back(CostFunction::linear(1));
    pb.comm.push_back(CostFunction::linear(i == 2 ? 0 : 1));
  }
  EXPECT_THROW(solve_dp_basic(pb), Error);
  pb.items = 5'000'000'000LL;
  EXPECT_THROW(solve_dp(pb), Error);
  pb.compute[0] = CostFunction::table({{1, 2}, {2, 1}});
  pb.items = 10;
  EXPECT_THROW(solve_dp(pb), Error);  // Algorithm 2 needs non-decreasing costs
}

}  // namespace hetlb::scatter
