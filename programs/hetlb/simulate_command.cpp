// hetlb simulate ...: SimGrid simulations. `diffusion` runs asynchronous iterative load balancing
// (Couturier & Giersch); `scatter` replays a scatter plan (RR-4770); `ring` a ring redistribution.
#include "commands.hpp"
#include "simulate_diffusion.hpp"

namespace hetlb::cli {

void add_simulate_ring_iterations_command(CLI::App& simulate);  // simulate_ring_iterations.cpp

void add_simulate_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("simulate", "Simulate on SimGrid (diffusion load balancing, scatter and ring replays)");
  sub->require_subcommand(1);
  add_simulate_diffusion_command(*sub);
  add_simulate_scatter_command(*sub);
  add_simulate_ring_command(*sub);
  add_simulate_ring_iterations_command(*sub);
}

}  // namespace hetlb::cli
