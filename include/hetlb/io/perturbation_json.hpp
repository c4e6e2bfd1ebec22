// The robustness report of `hetlb scatter --perturb/--factor/--factors --format json` ({"plan": the
// scatter JSON, "perturbation": {percent, samples, seed, factors, nominal_makespan, plan_makespan,
// replanned_makespan, regret, per_sample}}), and the reader of the factors file ({"NAME": F} for a
// computation factor, {"NAME": {"compute": F, "comm": G}}). Shared by the command line and the Python binding.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/perturbation.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::io {

nlohmann::json perturbation_json(const Platform& platform, const scatter::Result& result,
                                 const scatter::PerturbationRequest& request, const scatter::PerturbationReport& report);

// Sets the factors named in `factors` (parsed JSON of the factors file named `source`) into `f`, one
// per platform processor; throws hetlb::Error "<source>: ..." on an unknown name or a bad value.
void apply_cost_factors(const Platform& platform, const nlohmann::json& factors, const std::string& source,
                        std::vector<scatter::CostFactors>& f);

}  // namespace hetlb::io
