// Which balancer moves the load (docs/runtime.md and docs/simulation.md, "Global steps"): diffusion
// alone (neighbour to neighbour), global steps alone, or hybrid (diffusion plus a global step when its
// predicted gain exceeds its cost, hybrid_trigger.hpp). The MPI runtime and the simulator take the
// same names.
#pragma once
#include <string>

namespace hetlb::balance {

enum class Balancer { diffusion, global, hybrid };

// "diffusion", "global" or "hybrid"; otherwise hetlb::Error naming `option` and the value
// (`option` "--balancer": `--balancer "x": unknown; expected diffusion, global or hybrid`).
Balancer parse_balancer(const std::string& name, const std::string& option = "--balancer");
const char* to_string(Balancer b);

}  // namespace hetlb::balance
