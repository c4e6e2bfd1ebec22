// The exact planner in every send order (bisection + the windowed Pareto frontier of WindowProbe):
// against exhaustive search and Algorithm 1 on small instances of every cost kind, against
// Algorithm 2 on larger ones, in random and adversarial (slowest link first) orders; and what it
// proves when it gives up.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/exact.hpp"
#include "test_instances.hpp"

namespace hetlb::scatter {
using namespace testing;

namespace {

// Non-root processors served slowest link first (the adversarial order for the fast paths).
Problem slow_links_first(Problem pb) {
  const std::size_t p = pb.size();
  std::vector<std::size_t> idx(p - 1);
  for (std::size_t i = 0; i + 1 < p; ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return pb.comm[a].asymptotic_slope() > pb.comm[b].asymptotic_slope();
  });
  Problem out = pb;
  for (std::size_t k = 0; k + 1 < p; ++k) {
    out.names[k] = pb.names[idx[k]];
    out.comm[k] = pb.comm[idx[k]];
    out.compute[k] = pb.compute[idx[k]];
  }
  return out;
}

// Every cost drawn independently linear, affine or a table.
rc::Gen<Problem> gen_mixed(int max_p, Count max_n) {
  return rc::gen::exec([=] {
    Problem pb = *gen_problem(CostKind::Linear, max_p, max_n, false);
    for (std::size_t i = 0; i < pb.size(); ++i) {
      const CostKind kind = *rc::gen::element(CostKind::Linear, CostKind::Affine, CostKind::Table);
      const Problem other = *gen_problem(kind, 2, 1, false);
      pb.compute[i] = other.compute[0];
      if (i + 1 < pb.size()) pb.comm[i] = other.comm[0].is_zero() ? other.compute[0] : other.comm[0];
    }
    return pb;
  });
}

void check_exact(const Problem& pb, double opt) {
  const Plan ex = solve_exact(pb);
  RC_ASSERT(ex.optimal);
  RC_ASSERT(same_time(ex.makespan, opt));
  RC_ASSERT(same_time(makespan(pb, ex.items), ex.makespan));
  Count sum = 0;
  for (Count v : ex.items) {
    RC_ASSERT(v >= 0);
    sum += v;
  }
  RC_ASSERT(sum == pb.items);
  RC_ASSERT(ex.method.find("fallback") == std::string::npos);
}

// Ten instances per case: 300 cases make 3,000 instances per property.
template <class Gen>
void against_brute_force(Gen gen, bool adversarial) {
  for (int k = 0; k < 10; ++k) {
    Problem pb = *gen;
    if (adversarial) pb = slow_links_first(pb);
    const double opt = brute_force(pb);
    RC_ASSERT(same_time(solve_dp_basic(pb).makespan, opt));
    check_exact(pb, opt);
  }
}

}  // namespace

RC_GTEST_PROP(ExactAnyOrder, LinearRandomOrder, ()) { against_brute_force(gen_problem(CostKind::Linear, 5, 10, false), false); }
RC_GTEST_PROP(ExactAnyOrder, LinearSlowLinksFirst, ()) { against_brute_force(gen_problem(CostKind::Linear, 5, 10, false), true); }
RC_GTEST_PROP(ExactAnyOrder, AffineRandomOrder, ()) { against_brute_force(gen_problem(CostKind::Affine, 5, 10, false), false); }
RC_GTEST_PROP(ExactAnyOrder, AffineSlowLinksFirst, ()) { against_brute_force(gen_problem(CostKind::Affine, 5, 10, false), true); }
RC_GTEST_PROP(ExactAnyOrder, TablesRandomOrder, ()) { against_brute_force(gen_problem(CostKind::Table, 5, 10, false), false); }
RC_GTEST_PROP(ExactAnyOrder, TablesSlowLinksFirst, ()) { against_brute_force(gen_problem(CostKind::Table, 5, 10, false), true); }
RC_GTEST_PROP(ExactAnyOrder, MixedKinds, ()) { against_brute_force(gen_mixed(5, 10), false); }
RC_GTEST_PROP(ExactAnyOrder, MixedKindsSlowLinksFirst, ()) { against_brute_force(gen_mixed(5, 10), true); }

// Larger n (windows of many states, several linear pieces per table) against Algorithm 2.
RC_GTEST_PROP(ExactAnyOrder, AgainstAlgorithm2OnLargerInstances, ()) {
  Problem pb = *gen_mixed(8, 600);
  if (*rc::gen::arbitrary<bool>()) pb = slow_links_first(pb);
  check_exact(pb, solve_dp(pb).makespan);
}

// A state budget too small to finish: the best plan found, a proven lower bound, the gap.
RC_GTEST_PROP(ExactAnyOrder, GivingUpKeepsAProvenBound, ()) {
  const Problem pb = slow_links_first(*gen_mixed(5, 10));
  const double opt = brute_force(pb);
  ExactOptions options;
  options.window_layer_states = 2;
  const Plan ex = solve_exact(pb, options);
  RC_ASSERT(ex.lower_bound <= opt + 1e-9);
  RC_ASSERT(ex.makespan >= opt - 1e-9);
  RC_ASSERT(same_time(makespan(pb, ex.items), ex.makespan));
  if (!ex.optimal) RC_ASSERT(ex.method.find("gave up") != std::string::npos);
  options.dp_fallback = true;  // Algorithm 2 on request
  const Plan dp = solve_exact(pb, options);
  RC_ASSERT(dp.optimal);
  RC_ASSERT(same_time(dp.makespan, opt));
}

TEST(ExactAnyOrder, SaysWhichProofApplies) {
  Problem pb;
  pb.items = 10;
  pb.names = {"a", "b", "root"};
  pb.platform_index = {0, 1, 2};
  pb.compute = {CostFunction::linear(1), CostFunction::linear(1), CostFunction::linear(1)};
  pb.comm = {CostFunction::linear(0.1), CostFunction::linear(0.2), CostFunction::linear(0)};
  EXPECT_EQ(exact_proof(pb), "greedy");
  pb.comm[0] = CostFunction::affine(0.5, 0.1);
  EXPECT_EQ(exact_proof(pb), "frontier");
  pb.comm[0] = CostFunction::linear(0.3);
  std::string why;
  EXPECT_EQ(exact_proof(pb, &why), "window");
  EXPECT_NE(why.find("bandwidth"), std::string::npos);
  pb.comm[0] = CostFunction::table({{1, 0.1}, {4, 0.2}});
  EXPECT_EQ(exact_proof(pb, &why), "window");
  EXPECT_NE(why.find("table"), std::string::npos);
  pb.compute[1] = CostFunction::table({{1, 2}, {2, 1}});
  EXPECT_EQ(exact_proof(pb), "none");
}

}  // namespace hetlb::scatter
