// The best send order: branch and bound against every permutation; local search and the bound
// over every order on the same instances.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/order_search.hpp"
#include "hetlb/scatter/send_order.hpp"
#include "test_instances.hpp"

namespace hetlb::scatter {
using namespace testing;

namespace {

Platform as_platform(const Problem& pb) {
  Platform pf;
  pf.items = pb.items;
  pf.root = pb.size() - 1;
  for (std::size_t i = 0; i < pb.size(); ++i) pf.processors.push_back({pb.names[i], pb.compute[i], pb.comm[i], {}});
  return pf;
}

double best_over_permutations(const Platform& pf) {
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < pf.processors.size(); ++i)
    if (i != pf.root) rest.push_back(i);
  double best = 1e300;
  do {
    std::vector<std::size_t> order = rest;
    order.push_back(pf.root);
    best = std::min(best, solve_exact(make_problem(pf, order, pf.items)).makespan);
  } while (std::next_permutation(rest.begin(), rest.end()));
  return best;
}

rc::Gen<Platform> gen_platform(CostKind kind) {
  return rc::gen::exec([kind] {
    Problem pb = *gen_problem(kind, 6, 40, false);
    if (*rc::gen::arbitrary<bool>() && pb.size() > 2) pb.comm[1] = pb.comm[0], pb.compute[1] = pb.compute[0];  // twins
    return as_platform(pb);
  });
}

void check_search(const Platform& pf) {
  const double opt = best_over_permutations(pf);
  const OrderSearch bb = search_order(pf, pf.root, pf.items);
  RC_ASSERT(bb.proven);
  RC_ASSERT(same_time(bb.makespan, opt));
  RC_ASSERT(same_time(bb.lower_bound, opt));
  RC_ASSERT(bb.order.back() == pf.root);
  RC_ASSERT(same_time(solve_exact(make_problem(pf, bb.order, pf.items)).makespan, bb.makespan));
  RC_ASSERT(bb.makespan <= bb.bandwidth_makespan);

  OrderSearchOptions local;
  local.branch_and_bound_max = 0;
  const OrderSearch ls = search_order(pf, pf.root, pf.items, local);
  RC_ASSERT(!ls.proven);
  RC_ASSERT(ls.makespan >= opt - 1e-9);
  RC_ASSERT(ls.lower_bound <= opt + 1e-9);
  RC_ASSERT(ls.makespan <= ls.bandwidth_makespan);
  RC_ASSERT(same_time(ls.bandwidth_makespan, bb.bandwidth_makespan));
}

}  // namespace

RC_GTEST_PROP(OrderSearch, AffineLinksBranchAndBoundIsExhaustive, ()) { check_search(*gen_platform(CostKind::Affine)); }
RC_GTEST_PROP(OrderSearch, LinearCosts, ()) { check_search(*gen_platform(CostKind::Linear)); }
RC_GTEST_PROP(OrderSearch, Tables, ()) { check_search(*gen_platform(CostKind::Table)); }

TEST(OrderSearch, LocalSearchBeyondBranchAndBound) {
  Platform pf;
  pf.items = 2000;
  for (int i = 0; i < 16; ++i)  // latencies growing with bandwidth: the bandwidth order is not the best
    pf.processors.push_back({"P" + std::to_string(i), CostFunction::linear(0.01 * (1 + i % 7)),
                             CostFunction::affine(0.5 * (16 - i), 1e-3 * (1 + i)), {}});
  pf.root = 0;
  pf.processors[0].compute = CostFunction::linear(0.1);  // a slow root
  OrderSearchOptions o;
  o.branch_and_bound_max = 8;
  o.max_evaluations = 300;
  const OrderSearch r = search_order(pf, pf.root, pf.items, o);
  EXPECT_FALSE(r.proven);
  EXPECT_LE(r.makespan, r.bandwidth_makespan);
  EXPECT_LE(r.lower_bound, r.makespan);
  EXPECT_GT(r.lower_bound, 0);
  EXPECT_LE(r.evaluations, 301u);
  EXPECT_NE(r.method.find("local search"), std::string::npos);
}

// Large and latency-heavy: the local search scores orders by their rounded relaxation, and only its
// shortlist is solved exactly (a handful of exact evaluations, however many orders are tried).
TEST(OrderSearch, LargeLatencyHeavyPlatformsStayCheap) {
  Platform pf;
  pf.items = 5000;
  std::uint64_t x = 7;
  auto next = [&] { return static_cast<double>((x = x * 6364136223846793005ULL + 1) >> 11) / 9007199254740992.0; };
  for (int i = 0; i < 30; ++i)
    pf.processors.push_back({"P" + std::to_string(i), CostFunction::linear(0.001 + 0.009 * next()),
                             CostFunction::affine(0.5 * next(), 1e-5 + 1e-3 * next()), {}});
  pf.root = 0;
  const OrderSearch r = search_order(pf, pf.root, pf.items);
  EXPECT_FALSE(r.proven);
  EXPECT_LE(r.evaluations, 1 + OrderSearchOptions{}.shortlist);
  EXPECT_GT(r.estimates, 30u);
  EXPECT_LE(r.makespan, r.bandwidth_makespan);
  EXPECT_LE(r.lower_bound, r.makespan);
  EXPECT_TRUE(same_time(solve_exact(make_problem(pf, r.order, pf.items)).makespan, r.makespan));
}

}  // namespace hetlb::scatter
