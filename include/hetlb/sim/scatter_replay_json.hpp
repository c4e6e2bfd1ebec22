// A scatter plan replayed on SimGrid as JSON, the shape of `hetlb simulate scatter --format json`:
// algorithm, predicted and simulated makespans, their relative gap (null when infinite), per share
// the predicted and simulated dates, wall_seconds. Shared by the command line and the Python binding.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "hetlb/scatter/solve.hpp"
#include "hetlb/sim/scatter_replay.hpp"

namespace hetlb::sim {

// (replayed - predicted) / predicted; 0 when both are 0, infinity when only the prediction is 0.
double replay_relative_gap(const scatter::Result& plan, const ScatterReplay& replay);

nlohmann::json scatter_replay_json(const std::string& algorithm, const scatter::Result& plan,
                                   const ScatterReplay& replay);

}  // namespace hetlb::sim
