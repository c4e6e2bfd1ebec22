// perturb_plan: the plan on perturbed costs against re-planning with them (RR-4770 Section 5's
// robustness question), its progress callback, its bounds and its determinism.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/perturbation.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {
namespace {

Platform grid1999_platform() { return io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json"); }

PerturbationReport perturb(const Platform& pf, double percent, int samples, std::uint64_t seed,
                           std::vector<int>* progress = nullptr) {
  Request req;
  req.items = 2000;
  const Result nominal = plan_scatter(pf, req);
  PerturbationRequest pr;
  pr.percent = percent;
  pr.samples = samples;
  pr.seed = seed;
  if (progress) pr.on_sample = [progress](int done) { progress->push_back(done); };
  return perturb_plan(pf, req, nominal, pr);
}

// With exact costs (0%) every sample is the nominal plan, and re-planning finds nothing better: the
// nominal plan is the exact optimum.
TEST(Perturbation, ExactCostsGiveTheNominalPlan) {
  const PerturbationReport r = perturb(grid1999_platform(), 0, 5, 1);
  ASSERT_EQ(r.samples.size(), 5u);
  for (const PerturbationSample& s : r.samples) {
    EXPECT_DOUBLE_EQ(s.plan, r.nominal);
    EXPECT_DOUBLE_EQ(s.replanned, r.nominal);
  }
}

// Re-planning with the real costs never loses to the fixed plan (it includes the exact optimum in
// the plan's order), and the same seed gives the same samples.
TEST(Perturbation, ReplanningNeverLosesAndSeedsRepeat) {
  const Platform pf = grid1999_platform();
  const PerturbationReport a = perturb(pf, 20, 30, 7), b = perturb(pf, 20, 30, 7), c = perturb(pf, 20, 30, 8);
  bool differs = false;
  for (std::size_t k = 0; k < a.samples.size(); ++k) {
    EXPECT_LE(a.samples[k].replanned, a.samples[k].plan * (1 + 1e-12));
    EXPECT_EQ(a.samples[k].plan, b.samples[k].plan);
    EXPECT_EQ(a.samples[k].replanned, b.samples[k].replanned);
    differs = differs || a.samples[k].plan != c.samples[k].plan;
  }
  EXPECT_TRUE(differs) << "another seed gave the same costs";
  EXPECT_GT(a.regret.max, 0) << "20% noise should make the fixed plan lose somewhere";
}

TEST(Perturbation, ProgressCountsEverySampleInOrder) {
  std::vector<int> progress;
  perturb(grid1999_platform(), 10, 4, 1, &progress);
  EXPECT_EQ(progress, (std::vector<int>{1, 2, 3, 4}));
}

TEST(Perturbation, RefusesSampleCountsOutsideTheirRange) {
  const Platform pf = grid1999_platform();
  EXPECT_THROW(perturb(pf, 10, 0, 1), Error);
  EXPECT_THROW(perturb(pf, 10, kMaxPerturbationSamples + 1, 1), Error);
  EXPECT_THROW(perturb(pf, 100, 1, 1), Error);
}

}  // namespace
}  // namespace hetlb::scatter
