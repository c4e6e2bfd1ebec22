// Each subcommand of the hetlb command line registers itself here; main() stays a thin shell.
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

}  // namespace hetlb::cli
