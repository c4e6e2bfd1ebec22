// The options of a diffusion simulation as its users give them: `hetlb simulate diffusion`'s flags and
// Python's `hetlb.DiffusionOptions` are this one object (same names, dashes become underscores, same
// defaults, same checks), turned into the simulator's configuration by one function.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {

// --nodes' range (the simulator then refuses more than kMaxSimulatedNodes).
inline constexpr int kMaxOptionNodes = 1 << 20;

struct DiffusionOptions {
  std::string platform = DiffusionConfig{}.platform;  // cluster, grid, grid-real or a SimGrid XML file
  int nodes = -1;                                      // -1: 16, or the topology / initial-load file's
  std::string topology = DiffusionConfig{}.topology;   // diffusion::topology_help()
  std::string strategy = DiffusionConfig{}.strategy.name();
  double k = 1;                      // best effort's k
  bool residue_equal = false;        // simple's flag
  std::vector<std::string> params;   // NAME=VALUE, the strategy's parameters
  bool virtual_load = DiffusionConfig{}.virtual_load;
  bool integer = false;
  bool coalesce_data = DiffusionConfig{}.coalesce_data;
  std::string estimates = diffusion::to_string(DiffusionConfig{}.estimates);
  std::string lb_phase = diffusion::to_string(DiffusionConfig{}.lb_phase);
  bool simulate_streaks = !DiffusionConfig{}.fast_forward;
  std::string initial = DiffusionConfig{}.initial;  // single, random or a file of loads
  double load_per_node = DiffusionConfig{}.load_per_node;
  double ratio = DiffusionConfig{}.ratio;
  std::uint64_t seed = DiffusionConfig{}.seed;
  long iterations = DiffusionConfig{}.convergence_iterations;
  double time_limit = DiffusionConfig{}.time_limit;
  double min_comp_iter = DiffusionConfig{}.min_comp_iter;
  double min_lb_iter = DiffusionConfig{}.min_lb_iter;
  double trace_interval = 0;  // sampling period when sampled (0: every tau)
  std::string balance = diffusion::to_string(DiffusionConfig{}.balance);
  std::string balancer = balance::to_string(DiffusionConfig{}.balancer);
  std::string speeds;                  // DiffusionConfig::speeds
  std::vector<std::string> slowdowns;  // NODE:FACTOR:START:END each
  std::vector<double> metrics_at;
  bool imbalance_integral = false;
};

// The configuration these options describe, every value checked (hetlb::Error naming the option as the
// command line spells it, --nodes, --lb-phase, ..., and what it expects). `sampled`: the load is sampled
// (a trace or a plot is asked for) every trace_interval s, or every tau when it is 0.
DiffusionConfig to_config(const DiffusionOptions& options, bool sampled);

}  // namespace hetlb::sim
