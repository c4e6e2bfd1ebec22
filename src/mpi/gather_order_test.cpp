// choose_gather_order: the completion of a gather into a single-port root (results ready at T_i,
// comm[i](n_i) each, one at a time) for the send order and its reverse, the earlier one kept.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>

#include "hetlb/mpi/distribution.hpp"

namespace {

using hetlb::CostFunction;
using hetlb::scatter::Problem;

Problem problem_of(const std::vector<double>& per_item) {
  Problem p;
  for (std::size_t i = 0; i < per_item.size(); ++i) {
    p.names.push_back("p" + std::to_string(i));
    p.platform_index.push_back(i);
    p.comm.push_back(CostFunction::linear(per_item[i]));
    p.compute.push_back(CostFunction::linear(1));
  }
  return p;
}

// Event by event, independently of the library: the root takes the results in `order`.
double simulate(const Problem& p, const std::vector<hetlb::Count>& items, const std::vector<double>& finish,
                const std::vector<std::size_t>& order) {
  double port_free = 0;
  for (std::size_t i : order) {
    if (items[i] == 0) continue;
    const double start = finish[i] > port_free ? finish[i] : port_free;
    port_free = start + p.comm[i].eval(static_cast<double>(items[i]));
  }
  return port_free;
}

TEST(GatherOrder, ReverseWhenTheFirstServedFinishLast) {
  // Send order P1, P2, root: P1 is ready at 10 (1 s to send back), P2 at 2 (5 s), the root at 1.
  const Problem p = problem_of({1.0, 5.0, 0.0});
  const std::vector<hetlb::Count> items{1, 1, 1};
  const hetlb::mpi::GatherChoice g = hetlb::mpi::choose_gather_order(p, items, {10, 2, 1});
  EXPECT_EQ(g.order, (std::vector<std::size_t>{2, 1, 0}));
  EXPECT_DOUBLE_EQ(g.completion, 11.0);  // send order would give 16
}

TEST(GatherOrder, SendOrderWhenItIsNotWorse) {
  const Problem p = problem_of({1.0, 1.0, 0.0});
  const hetlb::mpi::GatherChoice g = hetlb::mpi::choose_gather_order(p, {2, 2, 2}, {3, 3, 3});
  EXPECT_EQ(g.order, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(g.completion, 7.0);
}

RC_GTEST_PROP(GatherOrder, TheEarlierOfSendOrderAndReverse, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 7);
  std::vector<double> per_item, finish;
  std::vector<hetlb::Count> items;
  for (std::size_t i = 0; i < n; ++i) {
    per_item.push_back(i + 1 == n ? 0.0 : *rc::gen::inRange(0, 100) / 10.0);
    finish.push_back(*rc::gen::inRange(0, 1000) / 10.0);
    items.push_back(*rc::gen::inRange<hetlb::Count>(0, 20));
  }
  const Problem p = problem_of(per_item);
  std::vector<std::size_t> forward(n);
  std::iota(forward.begin(), forward.end(), 0);
  const std::vector<std::size_t> backward(forward.rbegin(), forward.rend());
  const hetlb::mpi::GatherChoice g = hetlb::mpi::choose_gather_order(p, items, finish);
  RC_ASSERT(g.order == forward || g.order == backward);
  RC_ASSERT(g.completion == simulate(p, items, finish, g.order));
  RC_ASSERT(g.completion == std::min(simulate(p, items, finish, forward), simulate(p, items, finish, backward)));
}

}  // namespace
