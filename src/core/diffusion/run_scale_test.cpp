// The scale of a run (run_scale.hpp) and the minimum-iteration rule (minimum_iteration.hpp): one rule
// for the simulator and campaign specs, their refusals written from the constants they check.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "hetlb/diffusion/minimum_iteration.hpp"
#include "hetlb/diffusion/run_scale.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

std::string refusal(double total, double average, double ratio, double limit) {
  try {
    check_run_scale(total, average, ratio, limit);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(RunScale, TauIsTheTimeToComputeTheAverageLoad) {
  EXPECT_DOUBLE_EQ(tau_of(1000, 10), 10.0);  // 1000 units of 10 ms
  EXPECT_DOUBLE_EQ(tau_of(1000, 0.1), 0.1);
  EXPECT_DOUBLE_EQ(time_limit_of(0, 2000, 0.1), 2000.0);  // 10 x 2000 x tau
  EXPECT_DOUBLE_EQ(time_limit_of(5, 2000, 0.1), 5.0);
}

TEST(RunScale, AcceptsTheStudysRuns) {
  for (double ratio : {10.0, 1.0, 0.1})
    EXPECT_EQ(refusal(1000.0 * 1024, 1000, ratio, time_limit_of(0, 2000, tau_of(1000, ratio))), "");
  EXPECT_EQ(refusal(1, 1, kShortestTau / kSecondsPerUnitPerRatio, 1), "");  // tau exactly the shortest
}

TEST(RunScale, RefusesTauBelowTheClocksResolution) {
  const std::string r = refusal(1e-300, 1e-300, 1, 1);
  EXPECT_NE(r.find("expected tau >= 1e-06 s"), std::string::npos) << r;
  EXPECT_NE(refusal(1, 1, 0.999 * kShortestTau / kSecondsPerUnitPerRatio, 1), "");
  EXPECT_NE(refusal(1, std::nan(""), 1, 1), "");
}

TEST(RunScale, RefusesInfiniteWorkOrTimeLimit) {
  const std::string r = refusal(1e300, 1e300, 1e300, 1);
  EXPECT_NE(r.find("inf flops"), std::string::npos) << r;
  EXPECT_NE(r.find("expected finite amounts"), std::string::npos) << r;
  EXPECT_NE(refusal(1000, 1000, 1, std::numeric_limits<double>::infinity()), "");
}

TEST(RunScale, RefusalsQuoteTheConstantsTheyCheck) {
  EXPECT_EQ(std::stod(shortest_tau_text()), kShortestTau);
  EXPECT_EQ(std::stod(shortest_min_iteration_text()), kShortestMinIteration);
  EXPECT_NE(min_iteration_expected().find(shortest_min_iteration_text() + " s"), std::string::npos);
  EXPECT_TRUE(valid_min_iteration(kShortestMinIteration));
  EXPECT_FALSE(valid_min_iteration(std::nextafter(kShortestMinIteration, 0.0)));
}

}  // namespace
}  // namespace hetlb::diffusion
