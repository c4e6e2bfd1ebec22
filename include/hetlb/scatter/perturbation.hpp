// How fragile a plan is: the makespan of a fixed distribution (same send order, same counts) when
// each processor's real costs differ from the model, beside the makespan of re-planning with the
// real costs (what the planner would have done had it known). RR-4770 Section 5 measures such
// differences: a load peak on one machine, noise on the measured costs.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {

struct CostFactors {  // real cost = factor x modelled cost
  double compute = 1.0;
  double comm = 1.0;
};

struct PerturbationRequest {
  double percent = 0.0;  // each factor further multiplied by 1 + u percent / 100, u uniform in [-1, 1]
  int samples = 1;
  std::uint64_t seed = 1;
  std::vector<CostFactors> fixed;  // per platform processor (empty: all 1), e.g. a load peak
  std::function<void(int done)> on_sample;  // called after each sample (progress of long runs), may be empty
};

inline constexpr int kMaxPerturbationSamples = 1000000;

struct PerturbationSample {
  double plan = 0;        // the chosen plan's makespan on the perturbed costs
  double replanned = 0;   // had the planner known: the better of the exact optimum in the plan's
                          // order and the exact plan of the same order policy, on the real costs
};

struct Distribution {
  double min = 0, mean = 0, median = 0, p90 = 0, max = 0;
};

struct PerturbationReport {
  double nominal = 0;  // the plan's makespan on the model
  std::vector<PerturbationSample> samples;
  Distribution plan, replanned, regret;  // regret = plan - replanned
};

// A cost model multiplied by `factor` (linear, affine and table costs alike).
CostFunction scaled(const CostFunction& f, double factor);

// Throws hetlb::Error on a percentage outside [0, 100), samples outside [1, kMaxPerturbationSamples], or a
// factor <= 0.
PerturbationReport perturb_plan(const Platform& platform, const Request& request, const Result& nominal,
                                const PerturbationRequest& perturbation);

Distribution distribution(std::vector<double> values);

}  // namespace hetlb::scatter
