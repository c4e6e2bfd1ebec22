// hetlb simulate ...: SimGrid simulations. `diffusion` runs asynchronous iterative load balancing
// (Couturier & Giersch); `scatter` replays a scatter plan (RR-4770); ring replay is to come.
#include "commands.hpp"
#include "simulate_diffusion.hpp"

namespace hetlb::cli {

void add_simulate_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("simulate", "Simulate on SimGrid (diffusion load balancing, scatter replay)");
  sub->require_subcommand(1);
  add_simulate_diffusion_command(*sub);
  add_simulate_scatter_command(*sub);
}

}  // namespace hetlb::cli
