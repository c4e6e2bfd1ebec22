// Platform set-up inside the SimGrid engine (private to hetlb_sim).
#pragma once
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

namespace hetlb::sim::detail {

// Loads "cluster", "grid", "grid-real" (generated for `nodes` hosts) or an XML file; hosts in natural
// name order. Throws hetlb::Error (naming the platform, its host count and `nodes`) when it has fewer
// hosts than `nodes`; `nodes` 0 accepts any platform. `cluster_speeds` (cluster only, one per node):
// each host's speed in flop/s instead of 1 Gflop/s.
std::vector<simgrid::s4u::Host*> load_platform(const simgrid::s4u::Engine& engine, const std::string& spec,
                                               int nodes, const std::vector<double>& cluster_speeds = {});

// Throws hetlb::Error naming both hosts when `from` and `to` (distinct) have no route between them:
// SimGrid aborts the first message sent over a missing route.
void check_route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to, const std::string& spec);

// Loads a platform given as XML text (through a temporary file).
void load_platform_text(const simgrid::s4u::Engine& engine, const std::string& xml);

}  // namespace hetlb::sim::detail
