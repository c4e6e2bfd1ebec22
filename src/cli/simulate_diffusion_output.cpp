// Output of hetlb simulate diffusion: JSON (the keys and more) or an aligned table.
#include <ostream>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "hetlb/io/diffusion_metrics_json.hpp"
#include "simulate_diffusion.hpp"

namespace hetlb::cli {

nlohmann::json diffusion_json(const sim::DiffusionConfig& c, const sim::DiffusionResult& r) {
  const auto& m = r.metrics;
  nlohmann::json j = {
      {"platform", c.platform},
      {"nodes", r.final_loads.size()},
      {"topology", r.topology_name},
      {"strategy", diffusion::to_string(c.strategy.kind)},
      {"k", c.strategy.k},
      {"virtual_load", c.virtual_load},
      {"integer", c.strategy.integer},
      {"residue_equal", c.strategy.residue_equal},
      {"coalesce_data", c.coalesce_data},
      {"estimates", diffusion::to_string(c.estimates)},
      {"lb_phase", diffusion::to_string(c.lb_phase)},
      {"initial", c.initial},
      {"ratio", c.ratio},
      {"seed", c.seed},
      {"iterations", c.convergence_iterations},
      {"tau", r.tau},
      {"time_limit", r.time_limit},
      {"computed_load", m.computed_load},
      {"events", r.events},
      {"streaks_computed", r.fast_forwarded},
      {"max_data_in_flight", r.max_data_in_flight},
      {"simulated_time", m.simulated_time},
      {"wall_seconds", m.wall_seconds},
      {"events_per_wall_second", m.wall_seconds > 0 ? static_cast<double>(r.events) / m.wall_seconds : 0.0},
      {"balance", diffusion::to_string(c.balance)},
      {"speeds", c.speeds.empty() ? std::string("platform") : c.speeds},
      {"node_speeds", r.speeds},
      {"final_loads", r.final_loads},
      {"target_loads", r.target_loads},
      {"final_time_imbalance", r.final_time_imbalance},
  };
  nlohmann::json slowdowns = nlohmann::json::array();
  for (const auto& s : c.slowdowns)
    slowdowns.push_back({{"node", s.node}, {"factor", s.factor}, {"start", s.start}, {"end", s.end}});
  j["slowdowns"] = slowdowns;
  io::add_diffusion_metrics(j, m);
  return j;
}

void print_diffusion_table(std::ostream& out, const nlohmann::json& j) {
  // nlohmann::json objects iterate in key order; print in the order a reader wants instead.
  static const char* const keys[] = {
      "platform", "nodes", "topology", "strategy", "k", "virtual_load", "integer", "balance", "initial", "ratio", "seed",
      "iterations", "tau", "converged", "converged_nodes", "avg_idle_time", "avg_convergence_date",
      "max_convergence_date", "data_transfer_amount", "initial_total_load", "final_total_load",
      "load_spread_percent", "final_min_load", "final_max_load", "final_time_imbalance", "ctrl_messages", "data_messages",
      "max_data_in_flight",
      "simulated_time", "wall_seconds", "events_per_wall_second"};
  // Simulated dates and durations say their unit; convergence dates also in tau (the paper's unit),
  // since at ratio 0.1 tau is 0.1 s and a date of 52.7 is 527 tau.
  static const std::set<std::string> seconds = {"tau", "avg_idle_time", "avg_convergence_date",
                                                "max_convergence_date", "simulated_time", "wall_seconds"};
  const double tau = j.at("tau").get<double>();
  for (const char* k : keys) {
    const auto& v = j.at(k);
    std::string text;
    if (v.is_null())
      text = "-";
    else if (v.is_string())
      text = v.get<std::string>();
    else if (v.is_number_float())
      text = fmt::format("{:.6g}", v.get<double>());
    else
      text = v.dump();
    if (!v.is_null() && seconds.contains(k)) text += " s";
    if (!v.is_null() && std::string_view(k).ends_with("convergence_date") && tau > 0)
      text += fmt::format(" ({:.6g} tau)", v.get<double>() / tau);
    out << fmt::format("{:<24} {}\n", k, text);
  }
}

}  // namespace hetlb::cli
