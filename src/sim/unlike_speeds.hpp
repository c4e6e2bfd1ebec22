// Unlike speeds in the simulator (private to hetlb_sim): the cluster's host speeds from --speeds, and
// slowdowns as SimGrid host speed profiles (docs/simulation.md, "Unlike speeds").
#pragma once
#include <vector>

#include <simgrid/s4u.hpp>

#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim::detail {

// Host speeds (flop/s) of the cluster for `c.speeds` at `nodes` nodes: s_i Gflop/s for relative speed
// s_i (a list or file), or the real Grid'5000 subset's speeds divided by their mean ("grid-real").
// {} when `c.speeds` is empty. Throws hetlb::Error for another platform or bad speeds.
std::vector<double> cluster_speeds(const DiffusionConfig& c, int nodes);

// Sets each slowed node's host speed profile: its speed divided by the factor from start to end.
// Returns the date the last slowdown ends (0 without any).
double apply_slowdowns(const std::vector<diffusion::Slowdown>& slowdowns,
                       const std::vector<simgrid::s4u::Host*>& node_hosts);

// Speeds handed to the strategies are in Gflop/s (only their ratios matter; 1 on the study's platforms).
inline constexpr double kGigaflops = 1e9;

// A host's speed at the current date: its peak speed times its profile's current factor.
inline double current_speed(const simgrid::s4u::Host* h) { return h->get_speed() * h->get_available_speed(); }

}  // namespace hetlb::sim::detail
