// The paper's metrics (Section "Metrics") plus counters, and the conservation check every run ends with.
#pragma once
#include <cstdint>
#include <vector>

namespace hetlb::diffusion {

// A global balancing step of the MPI runtime (docs/runtime.md, "Global steps").
struct GlobalStepRecord {
  long long call = 0;     // the iteration_done() call it was taken at
  double date = 0;        // s from start()
  double gain = 0;        // predicted time saved over the iterations left, s
  double cost = 0;        // predicted cost, s
  double work = 0;        // work the plan moves (load units)
  std::uint64_t items = 0;  // items moved
};

struct Metrics {
  double avg_idle_time = 0;         // time without load to compute, summed over nodes / nodes
  double avg_convergence_date = 0;  // over converged nodes (NaN if none)
  double max_convergence_date = 0;  // NaN unless every node converged
  double data_transfer_amount = 0;  // load moved / total load
  double computed_load = 0;         // load computed: sum over nodes and computing iterations
  bool converged = false;
  int converged_nodes = 0;
  double initial_total_load = 0, final_total_load = 0;
  double load_spread_percent = 0;  // standard deviation of final loads, % of the average
  double final_min_load = 0, final_max_load = 0;
  std::uint64_t ctrl_messages = 0, data_messages = 0;
  std::uint64_t ctrl_messages_skipped = 0;  // identical to the previous one to that neighbour
  std::uint64_t computing_iterations = 0, balancing_iterations = 0;
  double simulated_time = 0, wall_seconds = 0;
  std::vector<GlobalStepRecord> global_steps;  // the MPI runtime's global steps, in order
};

// Standard deviation of `loads` in percent of their mean (0 when the mean is 0).
double load_spread_percent(const std::vector<double>& loads);

// Throws hetlb::Error unless final == initial (exactly for integer load, to 1e-9 relative otherwise).
void check_conservation(double initial, double final, bool integer);

// Sum with compensated (Kahan-Babuska) summation, so conservation tests see no rounding drift.
double total_load(const std::vector<double>& loads);

}  // namespace hetlb::diffusion
