// hetlb simulate ...: SimGrid simulations. `diffusion` runs asynchronous iterative load balancing
// (Couturier & Giersch); replays of scatter and ring plans are to come as sibling subcommands.
#include "commands.hpp"
#include "simulate_diffusion.hpp"

namespace hetlb::cli {

void add_simulate_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("simulate", "Simulate on SimGrid (diffusion load balancing)");
  sub->require_subcommand(1);
  add_simulate_diffusion_command(*sub);
}

}  // namespace hetlb::cli
