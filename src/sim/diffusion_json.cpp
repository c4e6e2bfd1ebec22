#include "hetlb/sim/diffusion_json.hpp"

#include "hetlb/balance/balancer.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/io/diffusion_metrics_json.hpp"

namespace hetlb::sim {

nlohmann::json diffusion_json(const DiffusionConfig& c, const DiffusionResult& r) {
  const auto& m = r.metrics;
  nlohmann::json j = {
      {"platform", c.platform},
      {"nodes", r.final_loads.size()},
      {"topology", r.topology_name},
      {"strategy", c.strategy.name()},
      {"k", c.strategy.has("k") ? c.strategy.param("k") : 1.0},
      {"virtual_load", c.virtual_load},
      {"integer", c.strategy.integer},
      {"residue_equal", c.strategy.has("residue_equal") && c.strategy.param("residue_equal") != 0},
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
  // Every parameter of the strategy, by name (its registry entry: hetlb strategies).
  nlohmann::json params = nlohmann::json::object();
  for (std::size_t i = 0; i < c.strategy.params().size(); ++i)
    params[c.strategy.rule().params[i].name] = c.strategy.params()[i];
  j["strategy_params"] = params;
  io::add_diffusion_metrics(j, m);
  // Global steps (balancers global and hybrid; docs/simulation.md, "Global steps").
  j["balancer"] = balance::to_string(c.balancer);
  nlohmann::json steps = nlohmann::json::array();
  for (const GlobalStepEvent& g : r.global_steps)
    steps.push_back({{"date", g.date}, {"period", g.period}, {"gain", g.gain}, {"cost", g.cost}, {"load", g.load},
                     {"transfers", g.transfers}, {"collective_seconds", g.collective_seconds},
                     {"transfer_seconds", g.transfer_seconds}});
  j["global_steps"] = steps;
  j["global_step_count"] = r.global_steps.size();
  j["global_considered"] = r.global_considered;
  if (r.interrupted) j["interrupted"] = true;  // stopped by SIGINT or SIGTERM: the metrics of the run so far
  if (r.imbalance) {  // asked with metrics_at / imbalance_integral (diffusion/imbalance_curve.hpp)
    const diffusion::ImbalanceValues& v = *r.imbalance;
    for (std::size_t i = 0; i < v.dates.size(); ++i) {
      j[diffusion::imbalance_at_name("load", v.dates[i])] = v.load_at[i];
      j[diffusion::imbalance_at_name("time", v.dates[i])] = v.time_at[i];
    }
    if (c.imbalance_integral) {
      j[diffusion::imbalance_integral_name("load")] = v.load_integral;
      j[diffusion::imbalance_integral_name("time")] = v.time_integral;
    }
  }
  return j;
}

}  // namespace hetlb::sim
