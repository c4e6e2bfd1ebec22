// Section 3.4's root choice by branch and bound: the same root and totals as solving the scatter from
// scratch for every candidate, on small random platforms, for every algorithm and order policy.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/root_choice.hpp"
#include "hetlb/scatter/send_order.hpp"
#include "hetlb/scatter/solve.hpp"
#include "test_instances.hpp"

namespace hetlb::scatter {
using namespace testing;

namespace {

// A platform from a random problem: its processors, a random holder, sometimes a transfer model.
Platform gen_platform(CostKind kind, int max_p = 7) {
  const Problem pb = *gen_problem(kind, max_p, 60, false);
  Platform pf;
  pf.name = "random";
  pf.items = pb.items;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    Processor proc{pb.names[i], pb.compute[i], pb.comm[i], std::nullopt};
    if (*rc::gen::inRange(0, 3) == 0)
      proc.transfer = CostFunction::affine(*rc::gen::inRange(0, 8) / 4.0, *rc::gen::inRange(0, 8) / 16.0);
    pf.processors.push_back(proc);
  }
  // Identical processors (copies next to each other or apart): roots with the same problem.
  for (int copies = *rc::gen::inRange(0, 3); copies > 0; --copies) {
    Processor twin = pf.processors[static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(pf.processors.size())))];
    twin.name += "-copy" + std::to_string(copies);
    if (*rc::gen::inRange(0, 3) == 0) twin.comm = CostFunction::linear(*rc::gen::inRange(0, 8) / 8.0);  // a near twin
    if (*rc::gen::inRange(0, 3) == 0) twin.transfer = CostFunction::linear(*rc::gen::inRange(0, 8) / 8.0);
    pf.processors.insert(pf.processors.begin() + *rc::gen::inRange<int>(0, static_cast<int>(pf.processors.size()) + 1), twin);
  }
  pf.root = static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(pf.processors.size())));
  return pf;
}

void check_same_choice(const Platform& pf, Algorithm algorithm, OrderPolicy order) {
  Request request;
  request.algorithm = algorithm;
  request.order = order;
  request.exact.dp_fallback = true;
  // From scratch: every candidate solved, the first of the smallest totals.
  std::size_t expected = 0;
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> totals;
  for (std::size_t r = 0; r < pf.processors.size(); ++r) {
    Request one = request;
    one.root = pf.processors[r].name;
    const Result res = plan_scatter(pf, one);
    totals.push_back(res.transfer + res.plan.makespan);
    if (totals.back() < best) best = totals.back(), expected = r;
  }
  request.root = "auto";
  const Result chosen = plan_scatter(pf, request);
  RC_ASSERT(chosen.root == pf.processors[expected].name);
  RC_ASSERT(chosen.root_candidates.size() == pf.processors.size());
  for (std::size_t r = 0; r < pf.processors.size(); ++r) {
    const RootCandidate& c = chosen.root_candidates[r];
    RC_ASSERT(c.name == pf.processors[r].name);
    if (c.bound_only) {
      RC_ASSERT(c.total() <= totals[r]);  // a lower bound on the candidate's total
      RC_ASSERT(c.total() >= best);       // and why it was skipped
    } else {
      RC_ASSERT(c.total() == totals[r]);
    }
  }
}

// The bounds themselves: rational(r) is rational_lower_bound() of the candidate's problem, cheap(r)
// is below it, both below the exact optimum.
void check_bounds(const Platform& pf, OrderPolicy order) {
  const RootBounds bounds(pf, pf.items, order);
  for (std::size_t r = 0; r < pf.processors.size(); ++r) {
    const Problem pb = make_problem(pf, send_order(pf, r, order), pf.items);
    const double rational = rational_lower_bound(pb);
    RC_ASSERT(bounds.rational(r) == rational);
    RC_ASSERT(bounds.cheap(r) <= rational * (1 + 1e-12));
    if (pb.all_non_decreasing() && pb.items <= 20 && pb.size() <= 5)
      RC_ASSERT(bounds.rational(r) <= brute_force(pb) * (1 + 1e-12));
  }
}

const std::vector<Algorithm> kAlgorithms{Algorithm::Exact, Algorithm::Uniform, Algorithm::Dp, Algorithm::Lp,
                                         Algorithm::ClosedForm};
const std::vector<OrderPolicy> kFixedOrders{OrderPolicy::Given, OrderPolicy::Bandwidth, OrderPolicy::ReverseBandwidth};

}  // namespace

RC_GTEST_PROP(RootChoice, SameRootAsSolvingEveryCandidateLinear, ()) {
  const Platform pf = gen_platform(CostKind::Linear);
  check_same_choice(pf, *rc::gen::elementOf(kAlgorithms), *rc::gen::elementOf(kFixedOrders));
}
RC_GTEST_PROP(RootChoice, SameRootAsSolvingEveryCandidateAffine, ()) {
  const Platform pf = gen_platform(CostKind::Affine);
  check_same_choice(pf, *rc::gen::elementOf(std::vector<Algorithm>{Algorithm::Exact, Algorithm::Uniform, Algorithm::Dp,
                                                                    Algorithm::Lp}),
                    *rc::gen::elementOf(kFixedOrders));
}
RC_GTEST_PROP(RootChoice, SameRootAsSolvingEveryCandidateTables, ()) {
  const Platform pf = gen_platform(CostKind::Table);
  check_same_choice(pf, *rc::gen::elementOf(std::vector<Algorithm>{Algorithm::Exact, Algorithm::Dp, Algorithm::Uniform}),
                    *rc::gen::elementOf(kFixedOrders));
}
RC_GTEST_PROP(RootChoice, SameRootAsSolvingEveryCandidateBestOrder, ()) {
  const Platform pf = gen_platform(*rc::gen::element(CostKind::Linear, CostKind::Affine), 5);
  check_same_choice(pf, Algorithm::Exact, OrderPolicy::Best);
}
RC_GTEST_PROP(RootChoice, BoundsAreTheCandidatesRationalRelaxation, ()) {
  const Platform pf = gen_platform(*rc::gen::element(CostKind::Linear, CostKind::Affine, CostKind::Table));
  check_bounds(pf, *rc::gen::elementOf(kFixedOrders));
}

// The point of the bounds: on a platform where moving the data costs more than scattering it, the
// holder stays the root and almost no other candidate is solved.
TEST(RootChoice, SkipsCandidatesWhoseBoundExceedsTheBest) {
  Platform pf;
  pf.items = 100000;
  for (int i = 0; i < 300; ++i)
    pf.processors.push_back({"p" + std::to_string(i), CostFunction::linear(1e-3 * (1 + i % 7)),
                             CostFunction::linear(i == 0 ? 0.0 : 1e-5 * (1 + i % 11)), std::nullopt});
  Request request;
  request.root = "auto";
  const Result res = plan_scatter(pf, request);
  EXPECT_EQ(res.root, "p0");
  std::size_t solved = 0;
  for (const RootCandidate& c : res.root_candidates) solved += c.bound_only ? 0 : 1;
  EXPECT_LT(solved, 10u);
}

}  // namespace hetlb::scatter
