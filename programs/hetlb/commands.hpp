// Each subcommand of the hetlb command line registers itself here (kCommands); main() stays a thin shell.
#pragma once
#include <CLI/CLI.hpp>

namespace hetlb::cli {

void add_scatter_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_simgrid_platform_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);
void add_ring_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_campaign_command(CLI::App& app);
void add_diffusion_platform_command(CLI::App& app);
void add_strategies_command(CLI::App& app);

// The commands, in the order `hetlb --help` lists them. A new command: its add_NAME_command above and
// here, and its file (programs/hetlb/CMakeLists.txt).
inline constexpr void (*kCommands[])(CLI::App&) = {
    &add_scatter_command,  &add_compare_command,  &add_simgrid_platform_command,
    &add_calibrate_command, &add_ring_command,    &add_simulate_command,
    &add_campaign_command, &add_diffusion_platform_command, &add_strategies_command,
};

}  // namespace hetlb::cli
