// One diffusion run: build the topology and initial load, map nodes to hosts, start every node's
// activities, run SimGrid, then compute the paper's metrics and check conservation.
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "diffusion_world.hpp"
#include "engine.hpp"
#include "hetlb/diffusion/initial_load.hpp"
#include "hetlb/diffusion/minimum_iteration.hpp"
#include "hetlb/diffusion/run_scale.hpp"
#include "hetlb/diffusion/time_imbalance.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "hetlb/sim/platform.hpp"
#include "platform_loading.hpp"
#include "unlike_speeds.hpp"

namespace hetlb::sim {

namespace s4u = simgrid::s4u;
using detail::Node;
using detail::World;

namespace {
double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void check_config(const DiffusionConfig& c) {
  if (!(c.ratio > 0) || !std::isfinite(c.ratio))
    throw Error(fmt::format("--ratio {}: expected a positive computation/communication cost ratio", c.ratio));
  if (c.convergence_iterations < 1)
    throw Error(fmt::format("--iterations {}: expected at least 1", c.convergence_iterations));
  if (!diffusion::valid_min_iteration(c.min_lb_iter))
    throw Error(fmt::format("--min-lb-iter {}: expected {}; the balancing activity takes no simulated time of its own",
                            c.min_lb_iter, diffusion::min_iteration_expected()));
  if (!diffusion::valid_min_iteration(c.min_comp_iter))
    throw Error(fmt::format("--min-comp-iter {}: expected {}; a computing iteration on a tiny load takes no "
                            "simulated time",
                            c.min_comp_iter, diffusion::min_iteration_expected()));
  if (std::isnan(c.trace_interval))
    throw Error("--trace-interval nan: expected a positive duration (s)");
  for (double d : c.metrics_at)
    if (!(d >= 0) || !std::isfinite(d))
      throw Error(fmt::format("--metrics-at {}: expected simulated dates of at least 0 s", d));
  if (c.time_limit < 0 || !std::isfinite(c.time_limit))
    throw Error(fmt::format("--time-limit {}: expected a non-negative number of seconds", c.time_limit));
}

// Topology and initial load decide the node count together: --nodes, else the files.
void build_nodes(const DiffusionConfig& c, diffusion::Topology& topology, std::vector<double>& load) {
  const bool topo_file = !diffusion::is_builtin_topology(c.topology);
  int nodes = c.nodes;
  if (nodes <= 0 && topo_file) nodes = diffusion::make_topology(c.topology, 0).size();
  if (nodes <= 0 && c.initial != "single" && c.initial != "random")
    nodes = static_cast<int>(diffusion::read_initial_load(c.initial, 0, c.strategy.integer).size());
  if (nodes <= 0) throw Error(fmt::format("--nodes {}: expected a positive node count", c.nodes));
  topology = diffusion::make_topology(c.topology, nodes);
  load = diffusion::make_initial_load(c.initial, nodes, c.load_per_node, c.strategy.integer, c.seed);
}

// The load trace, kept in memory, holds a bounded number of values (800 MB of doubles).
constexpr double kMaxTraceValues = 1e8;
void check_trace_size(int nodes, double time_limit, double trace_interval) {
  const double samples = std::floor(time_limit / trace_interval) + 1;
  if (trace_interval > 0 && samples * nodes > kMaxTraceValues)
    throw Error(fmt::format("--trace-interval {}: {:.3g} samples of {} loads up to the time limit of {} s; expected at "
                            "most {:.0e} values (a longer interval or a shorter --time-limit)",
                            trace_interval, samples, nodes, time_limit, kMaxTraceValues));
}
}  // namespace

DiffusionResult simulate_diffusion(const DiffusionConfig& config) {
  check_config(config);
  diffusion::Topology topology;
  std::vector<double> initial;
  build_nodes(config, topology, initial);
  const int n = topology.size();
  if (n > kMaxSimulatedNodes)
    throw Error(fmt::format("{} nodes: expected at most {} (four SimGrid actors per node, each with a stack of its "
                            "own)",
                            n, kMaxSimulatedNodes));
  const double total = diffusion::total_load(initial);
  const double average = total / n;
  const double tau = diffusion::tau_of(average, config.ratio);
  const double time_limit = diffusion::time_limit_of(config.time_limit, config.convergence_iterations, tau);
  diffusion::check_run_scale(total, average, config.ratio, time_limit);
  const double trace_interval = config.trace_interval < 0 ? tau : config.trace_interval;
  check_trace_size(n, time_limit, trace_interval);
  diffusion::check_slowdowns(config.slowdowns, n);
  const std::vector<double> cluster_speeds = detail::cluster_speeds(config, n);

  // Beyond kMaxGuardedNodes, stacks without guard pages: SimGrid aborted ("Failed to protect stack")
  // at 8192 nodes, past the process's memory mappings. Results do not depend on it.
  auto engine = detail::make_engine(n > kMaxGuardedNodes ? std::vector<std::string>{"--cfg=contexts/guard-size:0"}
                                                         : std::vector<std::string>{});
  const std::vector<s4u::Host*> hosts = detail::load_platform(*engine, config.platform, n, cluster_speeds);
  const std::vector<int> host_of = map_nodes_to_hosts(n, static_cast<int>(hosts.size()));
  std::vector<s4u::Host*> node_hosts;
  for (int i = 0; i < n; ++i) node_hosts.push_back(hosts[host_of[i]]);
  for (int i = 0; i < n; ++i)
    for (int j : topology.neighbours[i])
      if (i < j) detail::check_route(hosts[host_of[i]], hosts[host_of[j]], config.platform);

  World w;
  w.config = config;
  w.tau = tau;
  w.min_comp = config.min_comp_iter >= 0 ? config.min_comp_iter : w.tau / 10;
  w.min_lb = config.min_lb_iter >= 0 ? config.min_lb_iter : w.tau;
  w.time_limit = time_limit;
  w.config.trace_interval = trace_interval;
  for (const s4u::Host* h : node_hosts) w.speeds.push_back(h->get_speed());
  w.slowdowns_end = detail::apply_slowdowns(config.slowdowns, node_hosts);
  std::vector<double> speeds;  // Gflop/s, without slowdowns
  for (const s4u::Host* h : node_hosts) speeds.push_back(h->get_speed() / detail::kGigaflops);
  // Balancing by time, each node aims at its speed-proportional share of the total.
  const std::vector<double> targets = config.balance == diffusion::Balance::time
                                          ? diffusion::target_shares(total, speeds)
                                          : std::vector<double>(static_cast<std::size_t>(n), average);
  w.tracker = config.balance == diffusion::Balance::time
                  ? diffusion::ConvergenceTracker(targets, config.convergence_iterations)
                  : diffusion::ConvergenceTracker(n, average, config.convergence_iterations);
  w.drained = s4u::ConditionVariable::create();
  w.drain_mutex = s4u::Mutex::create();
  w.pause_mutex = s4u::Mutex::create();
  w.quiet = s4u::ConditionVariable::create();
  w.resumed = s4u::ConditionVariable::create();
  const bool diffusing = config.balancer != balance::Balancer::global;  // the strategies run
  const bool global_steps = config.balancer != balance::Balancer::diffusion;
  if (global_steps)  // the collective's gather and broadcast (transfers: checked as they are made)
    for (const s4u::Host* h : node_hosts) {
      detail::check_route(h, node_hosts.front(), config.platform);
      detail::check_route(node_hosts.front(), h, config.platform);
    }
  w.flops_per_unit = config.ratio * kUnitFlopsPerRatio;
  w.nodes.reserve(n);
  for (int i = 0; i < n; ++i) {
    Node& node = w.nodes.emplace_back(i, static_cast<int>(topology.neighbours[i].size()), initial[i], config,
                                      speeds[static_cast<std::size_t>(i)]);
    node.host = hosts[host_of[i]];
    node.ctrl_box = s4u::Mailbox::by_name(fmt::format("ctrl-{}", i));
    node.data_box = s4u::Mailbox::by_name(fmt::format("data-{}", i));
    node.neighbours = topology.neighbours[i];
    node.mutex = s4u::Mutex::create();
    node.data_cv = s4u::ConditionVariable::create();
  }
  const std::vector<double> phases = diffusion::balancing_phases(config.lb_phase, n, config.seed);
  if (w.min_lb > 0)
    for (Node& node : w.nodes) node.lb_phase = phases[static_cast<std::size_t>(node.id)] * w.min_lb;
  w.exclusive_hosts = n <= static_cast<int>(hosts.size());
  for (Node& node : w.nodes)
    for (int j : node.neighbours) {
      const auto& back = topology.neighbours[j];
      node.slot_at.push_back(static_cast<int>(std::lower_bound(back.begin(), back.end(), node.id) - back.begin()));
    }
  for (Node& node : w.nodes) {
    s4u::Actor::create(fmt::format("recv-ctrl-{}", node.id), node.host,
                       [&w, &node] { detail::receiving_activity(w, node, detail::Channel::control); })->daemonize();
    s4u::Actor::create(fmt::format("recv-data-{}", node.id), node.host,
                       [&w, &node] { detail::receiving_activity(w, node, detail::Channel::data); })->daemonize();
    s4u::Actor::create(fmt::format("comp-{}", node.id), node.host, [&w, &node] { detail::computing_activity(w, node); });
    if (diffusing)
      node.balancer = s4u::Actor::create(fmt::format("lb-{}", node.id), node.host,
                                         [&w, &node] { detail::balancing_activity(w, node); });
  }
  s4u::Actor::create("timer", hosts.front(), [&w] { detail::timer_activity(w); })->daemonize();
  // Not daemonized: a step's transfers in flight at the end arrive before the loads are read.
  if (global_steps) s4u::Actor::create("global-steps", node_hosts.front(), [&w] { detail::global_step_activity(w); });
  // A global step may still come: the end is simulated.
  if (config.fast_forward && w.exclusive_hosts && !global_steps)
    s4u::Actor::create("steady-state", hosts.front(), [&w] { detail::steady_state_activity(w); })->daemonize();
  if (w.config.trace_interval > 0)
    s4u::Actor::create("trace", hosts.front(), [&w] { detail::trace_activity(w); })->daemonize();
  if (config.balance == diffusion::Balance::time && !config.slowdowns.empty())
    s4u::Actor::create("speed-changes", hosts.front(), [&w] { detail::speed_change_activity(w); })->daemonize();

  if (!config.metrics_at.empty() || config.imbalance_integral) {
    // A slowdown's start and end change its node's speed (ends first: one may start where another ends).
    std::vector<diffusion::SpeedChange> changes;
    for (const auto& s : config.slowdowns) changes.push_back({s.end, s.node, w.speeds[static_cast<std::size_t>(s.node)]});
    for (const auto& s : config.slowdowns)
      changes.push_back({s.start, s.node, w.speeds[static_cast<std::size_t>(s.node)] / s.factor});
    w.curve = std::make_unique<diffusion::ImbalanceCurve>(initial, w.speeds, config.metrics_at, std::move(changes));
  }

  static std::uint64_t dates = 0;  // one engine per process
  s4u::Engine::on_time_advance_cb([](double) { ++dates; });
  w.wall_start = w.last_progress = wall_now();
  detail::run_engine(*engine, "diffusion simulation");
  if (!w.error.empty()) throw Error(w.error);
  const double wall = wall_now() - w.wall_start;

  DiffusionResult r;
  r.initial_loads = initial;
  r.topology_name = topology.name;
  r.tau = w.tau;
  r.fast_forwarded = w.fast_forwarded;
  r.interrupted = w.interrupted;
  r.max_data_in_flight = w.max_in_flight;
  r.time_limit = w.time_limit;
  r.trace = std::move(w.trace);
  if (w.config.trace_interval > 0) r.trace.push_back(w.sample(w.finish_date));
  r.speeds = w.speeds;
  r.global_steps = w.global_steps;
  r.global_considered = w.global_considered;
  r.target_loads = targets;
  diffusion::Metrics& m = r.metrics;
  double idle = 0, sum_dates = 0, max_date = 0;
  for (const Node& node : w.nodes) {
    r.final_loads.push_back(node.state.real());
    r.hosts.push_back(node.host->get_name());
    idle += node.idle_time + (node.waiting ? w.finish_date - node.wait_start : 0.0);
    const double d = w.tracker.convergence_date(node.id);
    r.convergence_dates.push_back(d);
    if (!std::isnan(d)) {
      sum_dates += d;
      max_date = std::max(max_date, d);
    }
    m.computing_iterations += node.comp_iterations;
    m.balancing_iterations += node.lb_iterations;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  m.converged_nodes = w.tracker.converged_count();
  m.converged = w.tracker.all_converged();
  m.avg_idle_time = idle / n;
  m.avg_convergence_date = m.converged_nodes > 0 ? sum_dates / m.converged_nodes : nan;
  m.max_convergence_date = m.converged ? max_date : nan;
  m.data_transfer_amount = w.moved / total;
  m.computed_load = w.computed;
  m.initial_total_load = total;
  m.final_total_load = diffusion::total_load(r.final_loads);
  m.load_spread_percent = diffusion::load_spread_percent(r.final_loads);
  m.final_min_load = *std::min_element(r.final_loads.begin(), r.final_loads.end());
  m.final_max_load = *std::max_element(r.final_loads.begin(), r.final_loads.end());
  r.final_time_imbalance = diffusion::time_imbalance(r.final_loads, w.speeds);
  if (w.curve) r.imbalance = w.curve->finish(w.finish_date, r.final_loads);
  m.ctrl_messages = w.ctrl_messages;
  m.data_messages = w.data_messages;
  m.ctrl_messages_skipped = w.ctrl_skipped;
  m.simulated_time = w.finish_date;
  m.wall_seconds = wall;
  // Events actually simulated: iterations computed by the steady-state shortcut are not events.
  r.dates = dates;
  r.events = m.computing_iterations + m.balancing_iterations + m.ctrl_messages + m.data_messages - w.computed_iterations;
  diffusion::check_conservation(m.initial_total_load, m.final_total_load, config.strategy.integer);
  return r;
}

}  // namespace hetlb::sim
