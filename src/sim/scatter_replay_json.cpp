#include "hetlb/sim/scatter_replay_json.hpp"

#include <limits>

#include "hetlb/io/diffusion_metrics_json.hpp"

namespace hetlb::sim {

double replay_relative_gap(const scatter::Result& plan, const ScatterReplay& r) {
  // Relative to the prediction; a prediction of 0 s (nothing to do) has no relative gap unless missed.
  const double predicted = plan.schedule.makespan;
  return predicted > 0                ? (r.makespan - predicted) / predicted
         : r.makespan == predicted ? 0.0
                                   : std::numeric_limits<double>::infinity();
}

nlohmann::json scatter_replay_json(const std::string& algorithm, const scatter::Result& plan, const ScatterReplay& r) {
  nlohmann::json shares = nlohmann::json::array();
  for (std::size_t i = 0; i < r.shares.size(); ++i)
    shares.push_back({{"name", r.shares[i].name},
                      {"items", r.shares[i].items},
                      {"predicted_comm_end", plan.schedule.shares[i].comm_end},
                      {"simulated_comm_end", r.shares[i].comm_end},
                      {"predicted_finish", plan.schedule.shares[i].finish},
                      {"simulated_finish", r.shares[i].finish}});
  return nlohmann::json{{"algorithm", algorithm},
                        {"predicted_makespan", plan.schedule.makespan},
                        {"simulated_makespan", r.makespan},
                        {"relative_gap", io::finite_or_null(replay_relative_gap(plan, r))},
                        {"shares", shares},
                        {"wall_seconds", r.wall_seconds}};
}

}  // namespace hetlb::sim
