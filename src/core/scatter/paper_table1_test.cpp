// RR-4770 Section 5, Table 1 (examples/grid1999.json): the figures the model predicts.
#include <gtest/gtest.h>

#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/guaranteed_heuristic.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {

namespace {
Platform table1() { return io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json"); }
Result run(Algorithm a, OrderPolicy o) {
  Request r;
  r.algorithm = a;
  r.order = o;
  return plan_scatter(table1(), r);
}
}  // namespace

TEST(PaperTable1, BalancedMakespan) {
  const Result lp = run(Algorithm::Lp, OrderPolicy::Bandwidth);
  EXPECT_NEAR(*lp.plan.rational_optimum, 403.97, 0.005);
  const Result ex = run(Algorithm::Exact, OrderPolicy::Bandwidth);
  EXPECT_TRUE(ex.plan.optimal);
  EXPECT_GE(ex.plan.makespan, *lp.plan.rational_optimum);
  EXPECT_LT(ex.plan.makespan - *lp.plan.rational_optimum, 0.1);  // a fraction of a second above
  EXPECT_LE(ex.plan.makespan, lp.plan.makespan);
  EXPECT_EQ(ex.problem.names.front(), "caseb");
  EXPECT_EQ(ex.problem.names.back(), "dinadan");
  const Result cf = run(Algorithm::ClosedForm, OrderPolicy::Bandwidth);
  EXPECT_NEAR(*cf.plan.rational_optimum, *lp.plan.rational_optimum, 1e-6);
}

TEST(PaperTable1, UniformDistribution) {
  const Result u = run(Algorithm::Uniform, OrderPolicy::Bandwidth);
  EXPECT_NEAR(u.schedule.first_finish, 225.7, 0.05);
  EXPECT_NEAR(u.schedule.last_finish, 829.2, 0.05);
}

TEST(PaperTable1, IncreasingBandwidthOrderIsSlower) {
  const double dec = *run(Algorithm::ClosedForm, OrderPolicy::Bandwidth).plan.rational_optimum;
  const double inc = *run(Algorithm::ClosedForm, OrderPolicy::ReverseBandwidth).plan.rational_optimum;
  EXPECT_NEAR(inc - dec, 10.4, 0.05);
}

TEST(PaperTable1, RootChoiceKeepsTheHolderWhenMovingDataCosts) {
  Request r;
  r.root = "auto";
  const Result res = plan_scatter(table1(), r);
  EXPECT_EQ(res.root_candidates.size(), 16u);
  EXPECT_EQ(res.root, "dinadan");
  for (const auto& c : res.root_candidates) EXPECT_GE(c.total(), res.schedule.makespan + res.transfer - 1e-9);
}

}  // namespace hetlb::scatter
