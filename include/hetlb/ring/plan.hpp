// The planner for a ring: picks the paper's algorithm for the ring's kind.
#pragma once
#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

// Unidirectional: Algorithm 1 (homogeneous) or 2; bidirectional: the homogeneous planner
// (Algorithm 3's time) or the heterogeneous one (System 6 / System 8 / blocks). Validates first.
Plan plan_redistribution(const Ring& ring);

}  // namespace hetlb::ring
