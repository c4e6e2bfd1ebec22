// Test support: a second, plain discrete-event implementation of the diffusion model (Couturier &
// Giersch, Section "Simulation model"), with no SimGrid: its own event queue, its own per-node
// bookkeeping, constant message times. Only the strategy itself (diffusion::balance) and the inputs
// (topology, initial load) are shared with the product. diffusion_des_test.cpp compares it with
// simulate_diffusion on a star platform whose links give the same constant times.
#pragma once
#include <cstdint>
#include <vector>

#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim::testing {

// Star platform: host h computes `speed[h]` flop/s and reaches the centre through its own link of
// `latency[h]` s and `bandwidth[h]` bytes/s; a message of b bytes from h to g takes
// latency[h] + latency[g] + b / min(bandwidth[h], bandwidth[g]), whatever else is in flight.
struct StarPlatform {
  std::vector<double> speed, latency, bandwidth;
};

// How messages reach a node's channel (one for control, one for data).
//  - per_message: every message arrives its constant time after it was sent;
//  - one_at_a_time: a channel carries one message at a time, in order of sending: a message starts
//    when it was sent and the previous one on that channel has arrived (a receiver that posts its
//    next receive only after the previous one completed, as with a SimGrid mailbox without a
//    permanent receiver).
enum class Delivery { per_message, one_at_a_time };

struct ReferenceResult {
  bool converged = false;
  int converged_nodes = 0;
  double avg_convergence_date = 0, max_convergence_date = 0;  // NaN as in the product
  double data_transfer_amount = 0;
  double avg_idle_time = 0;
  double finish_date = 0;
  std::uint64_t data_messages = 0, ctrl_messages = 0, ctrl_skipped = 0;
  std::uint64_t computing_iterations = 0, balancing_iterations = 0;
  std::vector<double> final_loads, convergence_dates;
  // Coincidences (within 1e-9 s) of two events of one node whose order changes what follows: a
  // decision that transfers load and the start of a computing iteration, data arriving then, or a
  // message arriving at a load-balancing iteration. Engines may order such events differently.
  std::uint64_t event_ties = 0;
  // Load-balancing iterations that read announcements (virtual load) sent at the same date by
  // several neighbours, whose sum rounds differently in another order: engines that deliver them in
  // another order may differ in the last bit of the virtual load.
  std::uint64_t rounding_ties = 0;
};

// Runs the model of `config` (topology, initial load, strategy, virtual load, estimates, ratio,
// iterations, minimum iterations, time limit; node i on host i; platform and fast_forward ignored).
ReferenceResult run_reference(const DiffusionConfig& config, const StarPlatform& platform, Delivery delivery);

}  // namespace hetlb::sim::testing
