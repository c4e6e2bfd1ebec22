// Output of hetlb simulate diffusion: JSON (the keys and more) or an aligned table.
#include <ostream>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "simulate_diffusion.hpp"

namespace hetlb::cli {

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
  if (j.value("interrupted", false))  // SIGINT or SIGTERM ended the run (hetlb/interrupt.hpp)
    out << fmt::format("{:<24} {}\n", "interrupted", "yes: the results of the run so far");
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
  // Global steps (balancers global and hybrid): how many, and each one.
  if (j.value("balancer", std::string("diffusion")) != "diffusion") {
    out << fmt::format("{:<24} {}\n", "balancer", j.at("balancer").get<std::string>());
    out << fmt::format("{:<24} {} of {} considered\n", "global_steps", j.at("global_step_count").dump(),
                       j.at("global_considered").dump());
    std::size_t i = 0;
    for (const auto& g : j.at("global_steps"))
      out << fmt::format("{:<24} at {:.6g} s: predicted gain {:.6g} s, cost {:.6g} s; load moved {:.6g} in {} "
                         "transfers; collective {:.6g} s, transfers {:.6g} s\n",
                         fmt::format("global_step_{}", ++i), g.at("date").get<double>(), g.at("gain").get<double>(),
                         g.at("cost").get<double>(), g.at("load").get<double>(), g.at("transfers").dump(),
                         g.at("collective_seconds").get<double>(), g.at("transfer_seconds").get<double>());
  }
  // Imbalance over time, when asked (--metrics-at, --imbalance-integral).
  for (const auto& [k, v] : j.items())
    if (k.find("_imbalance_at_") != std::string::npos || k.ends_with("_imbalance_integral"))
      out << fmt::format("{:<24} {}\n", k, fmt::format("{:.6g}", v.get<double>()) + (k.ends_with("integral") ? " s" : ""));
}

}  // namespace hetlb::cli
