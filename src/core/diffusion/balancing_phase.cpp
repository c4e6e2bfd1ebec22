#include "hetlb/diffusion/balancing_phase.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::diffusion {

BalancingPhase parse_balancing_phase(const std::string& name) {
  if (name == "aligned") return BalancingPhase::aligned;
  if (name == "staggered") return BalancingPhase::staggered;
  throw Error(fmt::format("--lb-phase \"{}\": unknown; expected aligned or staggered", name));
}

const char* to_string(BalancingPhase phase) { return phase == BalancingPhase::aligned ? "aligned" : "staggered"; }

std::vector<double> balancing_phases(BalancingPhase phase, int nodes, std::uint64_t seed) {
  std::vector<double> out(static_cast<std::size_t>(std::max(nodes, 0)), 0.0);
  if (phase == BalancingPhase::aligned) return out;
  std::mt19937_64 rng(seed ^ 0x6c62272e07bb0142ULL);  // not the initial load's stream
  for (double& x : out) x = static_cast<double>(rng() >> 11) * 0x1.0p-53;
  return out;
}

}  // namespace hetlb::diffusion
