// Asynchronous iterative load balancing simulated on SimGrid (Couturier & Giersch, Section
// "Simulation model"): each node runs a receiving, a computing and a load-balancing activity;
// control and data messages travel on separate mailboxes with non-blocking sends.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hetlb/balance/balancer.hpp"
#include "hetlb/diffusion/balancing_phase.hpp"
#include "hetlb/diffusion/imbalance_curve.hpp"
#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/diffusion/node_state.hpp"
#include "hetlb/diffusion/run_scale.hpp"
#include "hetlb/diffusion/speed_inputs.hpp"
#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::sim {

// One decision of a node's load-balancing activity, as the node saw it (for tests and tracing).
struct DecisionEvent {
  int node = 0;
  double date = 0;
  double own_before = 0, own_after = 0;
  std::vector<double> estimates_before, estimates_after, transfers;  // one per neighbour
};

struct DiffusionConfig {
  std::string platform = "cluster";  // cluster, grid, grid-real, or a SimGrid XML file
  int nodes = 16;                    // <= 0: from the topology or initial-load file
  std::string topology = "torus";    // line, ring, torus, hypercube, complete, or edge-list file
  diffusion::Strategy strategy;
  bool virtual_load = false;
  std::string initial = "single";    // single, random, or a file of loads
  double load_per_node = 1000;
  double ratio = 1;                  // computation / communication cost of a load unit
  std::uint64_t seed = 1;
  long convergence_iterations = 2000;
  double time_limit = 0;      // simulated seconds; 0: 10 * convergence_iterations * tau
  double min_comp_iter = -1;  // minimum computing iteration (s); < 0: tau / 10
  double min_lb_iter = -1;    // minimum load-balancing iteration (s); < 0: tau
  double trace_interval = 0;  // > 0: sample every node's load this often (s); < 0: every tau
  bool progress = false;      // progress lines on stderr (at most one per 5 s of wall time)
  // What a node believes of its neighbours: their last report plus its own unacknowledged
  // decisions (accounted), or the last report only (reported; docs/simulation.md).
  diffusion::Estimates estimates = diffusion::Estimates::accounted;
  // When each node's balancing runs in its period: every node at 0, min_lb, 2 min_lb, ... (aligned,
  // what the study used) or each from its own seeded phase (staggered; docs/simulation.md).
  diffusion::BalancingPhase lb_phase = diffusion::BalancingPhase::aligned;
  // Compute the end of the convergence streaks once nothing can change (steady_state.cpp).
  bool fast_forward = true;
  // Not the draft's model: at most one data message in flight per link. What a node owes a neighbour
  // waits (and is computed on) while its previous data message to that neighbour has not arrived, then
  // leaves as one message (docs/simulation.md, "Coalesced data").
  bool coalesce_data = false;
  // Unlike speeds (docs/simulation.md, "Unlike speeds"). `speeds`: "" (the platform's host speeds),
  // or, on the cluster, node i's host at s_i Gflop/s from a list ("1,2,4"), a file of relative speeds,
  // or the named spread "grid-real" (the real subset's speeds, divided by their mean).
  std::string speeds;
  // What the strategies equalise: load units (the papers' model) or time, load / the host's speed
  // (docs/simulation.md, "Balance by time"); the convergence targets follow (speed-proportional shares).
  diffusion::Balance balance = diffusion::kDefaultBalance;
  // Node i's host speed divided by a factor during an interval (SimGrid speed profiles).
  std::vector<diffusion::Slowdown> slowdowns;
  std::function<void(const DecisionEvent&)> on_decision;  // called at every decision when set
  // Imbalance over time (diffusion/imbalance_curve.hpp): the load and time imbalances at these
  // simulated dates (s, >= 0), and with imbalance_integral their areas over the run.
  std::vector<double> metrics_at;
  bool imbalance_integral = false;
  // Which balancer moves the load (docs/simulation.md, "Global steps"): the strategies alone (the
  // study's model), global steps alone, or hybrid (the strategies, plus a global step when its
  // predicted gain exceeds its cost). Global and hybrid simulate the end of the streaks (no fast_forward).
  balance::Balancer balancer = balance::Balancer::diffusion;
  // Asked at every computing and load-balancing iteration when set: true ends the run there, as its time
  // limit would (SIGINT or SIGTERM at the command line, hetlb/interrupt.hpp; DiffusionResult::interrupted).
  std::function<bool()> stop = {};
};

// Global steps (docs/simulation.md, "Global steps"): considered every balancing period (min_lb) while
// some node is out of the 1% band, at most one step every kGlobalMinInterval periods, considerations
// that take none spaced by doubling gaps up to kGlobalMaxGap periods; the hybrid rule discounts an
// imbalance below kGlobalMargin (the MPI runtime's defaults: global_min_interval, sync_interval_max,
// and the hybrid's margin for noise-free measured speeds, speed_margin_min for a rank's own speed plus
// as much for the speeds' sum: the simulated speeds have no noise).
inline constexpr long kGlobalMinInterval = 2;
inline constexpr long kGlobalMaxGap = 8;
inline constexpr double kGlobalMargin = 0.02;

// Cost model (documented in docs/simulation.md): a load unit is 125,000 bytes of data (1 ms on a
// 125 MB/s link) and ratio * 1e6 flops (ratio ms on a 1 Gflop/s host); control messages are 64
// bytes. tau = average load * ratio * 1 ms, the time to compute the average load on 1 Gflop/s.
inline constexpr double kUnitBytes = 125000.0;
inline constexpr double kUnitFlopsPerRatio = diffusion::kFlopsPerUnitPerRatio;

// Largest node count simulated: each node runs four SimGrid actors, whose stacks beyond 4096 nodes
// are allocated without guard pages (a guarded stack takes two of the 65,530 memory mappings Linux
// allows a process by default); 16384 nodes take about 1 GB, 32768 took 10 GB here.
inline constexpr int kMaxSimulatedNodes = 16384;
inline constexpr int kMaxGuardedNodes = 4096;
inline constexpr double kControlBytes = 64.0;

struct LoadSample {
  double date;
  std::vector<double> loads;
  // max_i(x_i / s_i) / (sum x / sum s) with each host's speed at that date (diffusion/time_imbalance.hpp).
  double time_imbalance = 1;
};

// One global step as taken (hybrid_trigger.hpp for gain and cost).
struct GlobalStepEvent {
  double date = 0;                // s, when its collective began
  long period = 0;                // balancing periods (min_lb) since the start
  double gain = 0, cost = 0;      // predicted, s
  double load = 0;                // load the transfers moved
  std::size_t transfers = 0;      // messages of load
  double collective_seconds = 0;  // measured: the gather and the broadcast
  double transfer_seconds = 0;    // measured: from the first transfer's start to the last one's arrival
};

struct DiffusionResult {
  diffusion::Metrics metrics;
  std::vector<double> initial_loads, final_loads;
  std::vector<double> speeds;        // each node's host speed (flop/s), without slowdowns
  std::vector<double> target_loads;  // what the convergence criterion aims at, per node
  double final_time_imbalance = 1;
  std::vector<double> convergence_dates;  // NaN for nodes that did not converge
  std::vector<std::string> hosts;         // host of each node
  std::string topology_name;
  std::uint64_t events = 0;  // simulated computing + balancing iterations + messages
  std::uint64_t dates = 0;   // distinct simulated dates (SimGrid engine rounds that advance the clock)
  double tau = 0, time_limit = 0;
  bool fast_forwarded = false;  // the end of the streaks was computed, not simulated
  std::uint64_t max_data_in_flight = 0;  // most data messages sent and not yet received at once
  std::vector<LoadSample> trace;
  // When DiffusionConfig::metrics_at or imbalance_integral asks: the imbalance curve's values.
  std::optional<diffusion::ImbalanceValues> imbalance;
  // Balancers global and hybrid: the steps taken, in order, and the considerations (collectives) made.
  std::vector<GlobalStepEvent> global_steps;
  std::uint64_t global_considered = 0;
  // DiffusionConfig::stop ended the run before its convergence or time limit, at metrics.simulated_time:
  // the metrics are those of the run so far (like a run that reaches its time limit).
  bool interrupted = false;
};

// Runs one simulation. SimGrid allows one engine per process: a second call throws hetlb::Error.
// Throws hetlb::Error on bad input and when the final total load differs from the initial one.
DiffusionResult simulate_diffusion(const DiffusionConfig& config);

// Writes the trace as CSV (date,node0,node1,...,time_imbalance) atomically: nothing is left behind on failure.
void write_trace_csv(const DiffusionResult& result, const std::string& path);

}  // namespace hetlb::sim
