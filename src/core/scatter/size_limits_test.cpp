// The stated size limits of the two planners whose time grows fastest (issue 31): the GLPK fallback of
// `lp` and the `best` order's search refuse larger platforms at once, naming the limit.
#include <gtest/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/order_search.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

namespace {
// Deterministic costs in [lo, hi).
struct Lcg {
  std::uint64_t s = 12345;
  double operator()(double lo, double hi) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0;
  }
};
}  // namespace

TEST(SizeLimits, LpRefusesTheGlpkFallbackAboveItsLimit) {
  // Latencies as large as a few items: the closed method's selection is not feasible, GLPK would run.
  Lcg next;
  Problem pb;
  pb.items = 1'000'000;
  const std::size_t p = kLpGlpkMaxProcessors + 1;
  for (std::size_t i = 0; i < p; ++i) {
    pb.names.push_back("p" + std::to_string(i));
    pb.platform_index.push_back(i);
    pb.compute.push_back(CostFunction::affine(next(0, 1e-3), next(0.002, 0.02)));
    pb.comm.push_back(i + 1 == p ? CostFunction::linear(0) : CostFunction::affine(next(0, 1e-3), next(1e-6, 1e-4)));
  }
  try {
    solve_lp_affine(pb);
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected at most 20000"), std::string::npos) << e.what();
  }
}

TEST(SizeLimits, BestOrderRefusesAboveItsLimit) {
  Platform pf;
  pf.items = 1000;
  for (std::size_t i = 0; i <= kOrderSearchMaxProcessors; ++i)
    pf.processors.push_back({"p" + std::to_string(i), CostFunction::linear(1e-3), CostFunction::linear(1e-5), std::nullopt});
  try {
    search_order(pf, 0, pf.items);
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("10001 processors: expected at most 10000"), std::string::npos) << e.what();
  }
}

}  // namespace hetlb::scatter
