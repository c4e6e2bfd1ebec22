// Send orders (Theorem 3's policy, Section 4.4's exhaustive search).
#include <gtest/gtest.h>

#include <algorithm>

#include "hetlb/error.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {

namespace {
Platform small(std::vector<double> comm, std::vector<double> comp) {
  Platform pf;
  pf.items = 40;
  for (std::size_t i = 0; i < comm.size(); ++i)
    pf.processors.push_back({"P" + std::to_string(i), CostFunction::linear(comp[i]), CostFunction::linear(comm[i]), {}});
  return pf;
}
}  // namespace

TEST(SendOrder, BandwidthOrdersPutTheRootLast) {
  Platform pf = small({0.3, 0.1, 0.2, 0.1}, {1, 1, 1, 1});
  pf.root = 2;
  EXPECT_EQ(send_order(pf, 2, OrderPolicy::Bandwidth), (std::vector<std::size_t>{1, 3, 0, 2}));
  EXPECT_EQ(send_order(pf, 2, OrderPolicy::ReverseBandwidth), (std::vector<std::size_t>{0, 1, 3, 2}));
  EXPECT_EQ(send_order(pf, 2, OrderPolicy::Given), (std::vector<std::size_t>{0, 1, 3, 2}));
  EXPECT_THROW(parse_order_policy("fastest"), Error);
}

TEST(SendOrder, BestIsTheMinimumOverAllOrders) {
  Platform pf = small({0.5, 0.125, 0.25, 0.0, 0.375}, {2, 1, 3, 1.5, 0.5});
  pf.root = 3;
  Request r;
  r.order = OrderPolicy::Best;
  const Result best = plan_scatter(pf, r);
  std::vector<std::size_t> rest{0, 1, 2, 4};
  double expected = 1e300;
  do {
    std::vector<std::size_t> order = rest;
    order.push_back(3);
    expected = std::min(expected, solve_exact(make_problem(pf, order, pf.items)).makespan);
  } while (std::next_permutation(rest.begin(), rest.end()));
  EXPECT_DOUBLE_EQ(best.plan.makespan, expected);
  EXPECT_EQ(best.problem.names.back(), "P3");
}

TEST(SendOrder, BestBeyondNineProcessors) {
  Platform pf = small({0.1, 0.3, 0.2, 0.1, 0.5, 0.4, 0.2, 0.3, 0.6, 0.1, 0.2, 0.0},
                      {1, 2, 1, 3, 1, 2, 1, 2, 1, 1, 2, 1});
  pf.root = 11;
  Request r;
  r.order = OrderPolicy::Best;
  const Result best = plan_scatter(pf, r);
  ASSERT_TRUE(best.order_search.has_value());
  EXPECT_LE(best.plan.makespan, best.order_search->bandwidth_makespan);
  EXPECT_LE(best.order_search->lower_bound, best.plan.makespan);
}

TEST(SendOrder, ExplicitListsAreChecked) {
  Platform pf = small({0.3, 0.1, 0.2, 0.0}, {1, 1, 1, 1});
  pf.root = 3;
  EXPECT_EQ(explicit_order(pf, 3, "P2,P0,P1"), (std::vector<std::size_t>{2, 0, 1, 3}));
  auto refused = [&](const std::string& list, const std::string& fragment) {
    try {
      explicit_order(pf, 3, list);
      ADD_FAILURE() << list;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  refused("P2,P0,P9", "unknown processor 'P9'");
  refused("P2,P0,P0", "'P0' appears twice");
  refused("P2,P3,P0,P1", "'P3' is the root");
  refused("P2,P0", "'P1' is missing");
  refused("P2,,P0,P1", "empty processor name");
}

}  // namespace hetlb::scatter
