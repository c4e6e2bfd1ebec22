// hetlb simulate diffusion: options, run, output.
#pragma once
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "hetlb/sim/diffusion_json.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::cli {

void add_simulate_diffusion_command(CLI::App& simulate);
void add_simulate_scatter_command(CLI::App& simulate);  // simulate_scatter.cpp
void add_simulate_ring_command(CLI::App& simulate);     // simulate_ring.cpp

using sim::diffusion_json;  // the JSON shape lives in hetlb_sim (shared with the Python binding)
void print_diffusion_table(std::ostream& out, const nlohmann::json& j);

}  // namespace hetlb::cli
