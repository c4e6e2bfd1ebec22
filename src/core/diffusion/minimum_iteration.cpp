// The shortest minimum iteration, as written in refusals (include/hetlb/diffusion/minimum_iteration.hpp).
#include "hetlb/diffusion/minimum_iteration.hpp"

#include <fmt/format.h>

namespace hetlb::diffusion {

std::string shortest_min_iteration_text() { return fmt::format("{:g}", kShortestMinIteration); }

std::string min_iteration_expected() {
  return fmt::format("a duration of at least {} s, or a negative number for the default", shortest_min_iteration_text());
}

}  // namespace hetlb::diffusion
