// hetlb simulate diffusion [--platform cluster|grid|FILE.xml] [--nodes N] [--topology T] [--strategy S]
// [--k K] [--virtual-load] [--integer] [--initial single|random|FILE] [--ratio R] [--seed S]
// [--format table|json] [--trace FILE.csv] [--plot FILE.png] [--speeds LIST|FILE|grid-real]
// [--slowdown NODE:FACTOR:START:END ...] [--balancer diffusion|global|hybrid]
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "hetlb/balance/balancer.hpp"
#include "hetlb/io/build_json.hpp"
#include "hetlb/diffusion/minimum_iteration.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "hetlb/interrupt.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "hetlb/plot/load_curves.hpp"
#include "number_checks.hpp"
#include "hetlb/sim/diffusion_options.hpp"
#include "simulate_diffusion.hpp"

namespace hetlb::cli {

namespace {
struct SimulateDiffusionOptions {
  sim::DiffusionOptions s;  // shared with Python's hetlb.DiffusionOptions
  std::string format = "table";
  std::string trace, plot;
};

void run_simulate_diffusion(SimulateDiffusionOptions& o) {
  sim::DiffusionConfig config = sim::to_config(o.s, !o.trace.empty() || !o.plot.empty());
  // Outputs are checked before a simulation that may be long.
  plot::check_figure_path("--plot", o.plot);
  if (!o.trace.empty()) check_writable("--trace", o.trace);
  config.progress = true;
  // SIGINT, SIGTERM: the run ends at its next iteration and reports what it has (hetlb/interrupt.hpp).
  install_interrupt_handlers();
  config.stop = [] { return interrupted(); };
  const sim::DiffusionResult r = sim::simulate_diffusion(config);
  if (!o.trace.empty()) sim::write_trace_csv(r, o.trace);
  if (!o.plot.empty()) {
    std::vector<double> dates, imbalance;
    std::vector<std::vector<double>> loads;
    for (const auto& s : r.trace) {
      dates.push_back(s.date);
      loads.push_back(s.loads);
      imbalance.push_back(s.time_imbalance);
    }
    plot::render_load_curves(dates, loads, r.metrics.initial_total_load / static_cast<double>(r.final_loads.size()),
                             fmt::format("{}{}, {} nodes ({}), {}{}", config.strategy.describe(),
                                         config.virtual_load ? " + virtual load" : "", r.final_loads.size(),
                                         r.topology_name, config.strategy.integer ? "integer" : "real",
                                         config.balance == diffusion::Balance::time ? ", balanced by time" : ""),
                             o.plot, imbalance);
  }
  nlohmann::json j = diffusion_json(config, r);
  j["build"] = io::build_json();  // the build that made the result (include/hetlb/build_info.hpp)
  // A plug-in is part of the build: its identity joins the id (a rebuilt plug-in is another build).
  if (const std::string& plugin = config.strategy.rule().identity; !plugin.empty()) {
    j["build"]["id"] = j["build"]["id"].get<std::string>() + "+" + plugin;
    j["build"]["strategy_library"] = {{"path", config.strategy.rule().origin}, {"identity", plugin}};
  }
  if (o.format == "json")
    std::cout << j.dump(2) << "\n";
  else
    print_diffusion_table(std::cout, j);
  if (r.interrupted)
    throw Interrupted(fmt::format("interrupted by {} at simulated {:.6g} s of {:.6g} s: the results written are those "
                                  "of the run so far, marked as interrupted",
                                  interrupt_signal_name(), r.metrics.simulated_time, r.time_limit));
}
}  // namespace

void add_simulate_diffusion_command(CLI::App& simulate) {
  auto o = std::make_shared<SimulateDiffusionOptions>();
  sim::DiffusionOptions& c = o->s;
  CLI::App* sub = simulate.add_subcommand(
      "diffusion", "Asynchronous iterative load balancing (Couturier & Giersch) simulated on SimGrid");
  sub->add_option("--platform", c.platform,
                  "cluster, grid (the study's Grid'5000 subset), grid-real (its real speeds and links), or a SimGrid "
                  "XML platform file")
      ->capture_default_str();
  sub->add_option("--balance", c.balance,
                  "what the strategies equalise: load (units, the papers' model) or time (load / host speed; "
                  "convergence to speed-proportional shares)")
      ->capture_default_str();
  sub->add_option("--balancer", c.balancer,
                  "what moves the load: diffusion (the strategies, neighbour to neighbour), global (global steps: "
                  "a collective, the exact planner's shares, any-to-any transfers) or hybrid (diffusion, plus a "
                  "global step when its predicted gain exceeds its cost)")
      ->capture_default_str();
  sub->add_option("--speeds", c.speeds,
                  "cluster: node i's host at s_i Gflop/s, from a list (1,1,2,4), a file of relative speeds (one per "
                  "node), or grid-real (the real Grid'5000 subset's spread, mean 1)");
  sub->add_option("--slowdown", c.slowdowns,
                  "NODE:FACTOR:START:END: the node's speed divided by FACTOR from START to END s (repeatable; SimGrid "
                  "speed profiles)")
      ->take_all()
      ->allow_extra_args(false);
  sub->add_option("--nodes", c.nodes, "number of nodes (default: 16, or the topology/load file's)")
      ->check(CLI::Range(1, sim::kMaxOptionNodes));
  sub->add_option("--topology", c.topology, diffusion::topology_help())
      ->capture_default_str();
  sub->add_option("--strategy", c.strategy, diffusion::strategy_help())->capture_default_str();
  sub->add_option("--k", c.k, "best effort: divide each transfer by k (>= 1)")->capture_default_str();
  sub->add_option("--param", c.params, "NAME=VALUE: a parameter of the strategy (repeatable; hetlb strategies lists them)")
      ->take_all()
      ->allow_extra_args(false);
  sub->add_flag("--virtual-load", c.virtual_load, "announce transfers on control messages (virtual load)");
  sub->add_flag("--integer", c.integer, "integer load (round down, then DASUD's unit rules)");
  sub->add_flag("--residue-equal", c.residue_equal,
                "simple: a neighbour lighter by less than 1e-9 of the node's load counts as equal, so "
                "floating-point residue cannot hold a transfer back (off: the draft's rule)");
  sub->add_flag("--coalesce-data", c.coalesce_data,
                "at most one data message in flight per link: what is owed waits for the previous one (not the draft's model)");
  sub->add_option("--estimates", c.estimates,
                  "a node's estimate of a neighbour: accounted (its last report plus our transfers it has not "
                  "acknowledged) or reported (its last report only)")
      ->capture_default_str();
  sub->add_option("--lb-phase", c.lb_phase,
                  "when each node balances within its period: aligned (every node at 0, min-lb-iter, ...) or "
                  "staggered (each from its own phase drawn from --seed)")
      ->capture_default_str();
  sub->add_flag("--simulate-streaks", c.simulate_streaks,
                "simulate the end of the convergence streaks instead of computing it once nothing can change");
  sub->add_option("--initial", c.initial, "single (all on node 0), random, or a file of loads")
      ->capture_default_str();
  sub->add_option("--load-per-node", c.load_per_node, "total load / nodes, in units")
      ->capture_default_str()
      ->check(positive());
  sub->add_option("--ratio", c.ratio, "computation/communication cost ratio of a load unit (paper: 10, 1, 0.1)")
      ->capture_default_str();
  sub->add_option("--seed", c.seed, "seed of the random initial load (and of the staggered phases)")
      ->capture_default_str()
      ->check(whole_number<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()));
  sub->add_option("--iterations", c.iterations,
                  "consecutive computing iterations within 1% of the average to converge")
      ->capture_default_str()
      ->check(whole_number<long>(1, std::numeric_limits<long>::max()));
  sub->add_option("--time-limit", c.time_limit, "simulated seconds (0: 10 x iterations x tau; SIGINT, SIGTERM: see below)")
      ->capture_default_str();
  sub->add_option("--min-comp-iter", c.min_comp_iter, "minimum computing iteration, s (default, or negative: tau/10)")
      ->check(number_check(diffusion::valid_min_iteration, diffusion::min_iteration_expected()));
  sub->add_option("--min-lb-iter", c.min_lb_iter, "minimum load-balancing iteration, s (default, or negative: tau)")
      ->check(number_check(diffusion::valid_min_iteration, diffusion::min_iteration_expected()));
  sub->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  sub->add_option("--trace", o->trace, "write each node's load over time (FILE.csv)");
  sub->add_option("--trace-interval", c.trace_interval, "sampling period of --trace/--plot, s (default tau)")
      ->check(positive());
  sub->add_option("--plot", o->plot, "draw each node's load over time (FILE.png or FILE.svg, gnuplot)");
  sub->add_option("--metrics-at", c.metrics_at,
                  "simulated dates (s, comma-separated) at which the results give the load and time imbalance "
                  "(load_imbalance_at_D, time_imbalance_at_D)")
      ->delimiter(',')
      ->check(non_negative());
  sub->add_flag("--imbalance-integral", c.imbalance_integral,
                "give the area under the load and time imbalance curves over the run (load_imbalance_integral, "
                "time_imbalance_integral; s)");
  sub->footer(
      "SIGINT (Ctrl-C) or SIGTERM ends the run at its next iteration, as its time limit would: the results so far "
      "(output, --trace, --plot) are written, marked \"interrupted\": true, with one line on stderr; exit status 130 "
      "(SIGINT) or 143 (SIGTERM). A second signal ends it at once.");
  sub->callback([o] { run_simulate_diffusion(*o); });
}

}  // namespace hetlb::cli
