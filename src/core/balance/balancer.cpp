// The balancers' names (balancer.hpp).
#include "hetlb/balance/balancer.hpp"

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::balance {

Balancer parse_balancer(const std::string& name, const std::string& option) {
  if (name == "diffusion") return Balancer::diffusion;
  if (name == "global") return Balancer::global;
  if (name == "hybrid") return Balancer::hybrid;
  throw Error(fmt::format("{} \"{}\": unknown; expected diffusion, global or hybrid", option, name));
}

const char* to_string(Balancer b) {
  switch (b) {
    case Balancer::global: return "global";
    case Balancer::hybrid: return "hybrid";
    case Balancer::diffusion: break;
  }
  return "diffusion";
}

}  // namespace hetlb::balance
