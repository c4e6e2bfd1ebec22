// A diffusion simulation's outcome as JSON, the shape of `hetlb simulate diffusion --format json`:
// the run's configuration, tau, the time limit, event counts and the metrics (io::add_diffusion_metrics).
// Shared by the command line and the Python binding.
#pragma once
#include <nlohmann/json.hpp>

#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {

nlohmann::json diffusion_json(const DiffusionConfig& config, const DiffusionResult& result);

}  // namespace hetlb::sim
