// When each node's load-balancing activity runs within its period. The draft's model (Couturier &
// Giersch, Section "Simulation model") gives each node three concurrent activities but says nothing of
// their phases. With steps of zero cost and a common start, every node decides at the same instants on
// reports exactly one period old (lockstep); in a real asynchronous run the nodes' balancing dates
// spread over the period (docs/simulation.md, "Balancing phase").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hetlb::diffusion {

enum class BalancingPhase { aligned, staggered };

// "aligned" or "staggered"; throws hetlb::Error naming the value otherwise.
BalancingPhase parse_balancing_phase(const std::string& name);
const char* to_string(BalancingPhase phase);

// Each node's first balancing date as a fraction of the period: 0 for every node (aligned), or drawn
// uniformly in [0, 1) from `seed` (staggered; its own stream, independent of the initial load's).
std::vector<double> balancing_phases(BalancingPhase phase, int nodes, std::uint64_t seed);

}  // namespace hetlb::diffusion
