#include "hetlb/io/diffusion_metrics_json.hpp"

#include <cmath>

namespace hetlb::io {

nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

void add_diffusion_metrics(nlohmann::json& j, const diffusion::Metrics& m) {
  j["converged"] = m.converged;
  j["converged_nodes"] = m.converged_nodes;
  j["avg_idle_time"] = finite_or_null(m.avg_idle_time);
  j["avg_convergence_date"] = finite_or_null(m.avg_convergence_date);
  j["max_convergence_date"] = finite_or_null(m.max_convergence_date);
  j["data_transfer_amount"] = finite_or_null(m.data_transfer_amount);
  j["initial_total_load"] = m.initial_total_load;
  j["final_total_load"] = m.final_total_load;
  j["load_spread_percent"] = finite_or_null(m.load_spread_percent);
  j["final_min_load"] = m.final_min_load;
  j["final_max_load"] = m.final_max_load;
  j["ctrl_messages"] = m.ctrl_messages;
  j["ctrl_messages_skipped"] = m.ctrl_messages_skipped;
  j["data_messages"] = m.data_messages;
  j["computing_iterations"] = m.computing_iterations;
  j["balancing_iterations"] = m.balancing_iterations;
}

}  // namespace hetlb::io
