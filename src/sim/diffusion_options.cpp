// From the user's options to the simulator's configuration (diffusion_options.hpp).
#include "hetlb/sim/diffusion_options.hpp"

#include <cmath>

#include <fmt/format.h>

#include "hetlb/diffusion/minimum_iteration.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"

namespace hetlb::sim {

namespace {
void check_min_iteration(const char* option, double v) {
  if (v != -1 && !diffusion::valid_min_iteration(v))
    throw Error(fmt::format("{} {}: expected {}", option, v, diffusion::min_iteration_expected()));
}
}  // namespace

DiffusionConfig to_config(const DiffusionOptions& o, bool sampled) {
  DiffusionConfig c;
  if (o.nodes != -1 && (o.nodes < 1 || o.nodes > kMaxOptionNodes))
    throw Error(fmt::format("--nodes {}: expected 1 to {}", o.nodes, kMaxOptionNodes));
  if (o.iterations < 1) throw Error(fmt::format("--iterations {}: expected a whole number >= 1", o.iterations));
  check_min_iteration("--min-comp-iter", o.min_comp_iter);
  check_min_iteration("--min-lb-iter", o.min_lb_iter);
  if (o.trace_interval != 0 && !(o.trace_interval > 0))
    throw Error(fmt::format("--trace-interval {}: expected a positive number", o.trace_interval));
  if (!(o.load_per_node > 0) || !std::isfinite(o.load_per_node))
    throw Error(fmt::format("--load-per-node {}: expected a positive number", o.load_per_node));
  for (double d : o.metrics_at)
    if (!(d >= 0) || !std::isfinite(d)) throw Error(fmt::format("--metrics-at {}: expected dates >= 0 (s)", d));
  c.platform = o.platform;
  c.topology = o.topology;
  c.initial = o.initial;
  // Without --nodes, a topology or initial-load file decides the node count.
  const bool from_files =
      !diffusion::is_builtin_topology(o.topology) || (o.initial != "single" && o.initial != "random");
  c.nodes = o.nodes != -1 ? o.nodes : from_files ? 0 : DiffusionConfig{}.nodes;
  c.strategy = diffusion::strategy_of(o.strategy, o.k, o.residue_equal, o.params, o.integer);
  c.virtual_load = o.virtual_load;
  c.coalesce_data = o.coalesce_data;
  c.estimates = diffusion::parse_estimates(o.estimates);
  c.lb_phase = diffusion::parse_balancing_phase(o.lb_phase);
  c.fast_forward = !o.simulate_streaks;
  c.load_per_node = o.load_per_node;
  c.ratio = o.ratio;
  c.seed = o.seed;
  c.convergence_iterations = o.iterations;
  c.time_limit = o.time_limit;
  c.min_comp_iter = o.min_comp_iter;
  c.min_lb_iter = o.min_lb_iter;
  c.trace_interval = !sampled ? 0.0 : o.trace_interval > 0 ? o.trace_interval : -1.0;
  c.balance = diffusion::parse_balance(o.balance);
  c.balancer = balance::parse_balancer(o.balancer, "--balancer");
  c.speeds = o.speeds;
  for (const std::string& text : o.slowdowns) c.slowdowns.push_back(diffusion::parse_slowdown(text));
  c.metrics_at = o.metrics_at;
  c.imbalance_integral = o.imbalance_integral;
  return c;
}

}  // namespace hetlb::sim
