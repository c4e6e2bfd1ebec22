// The planner for a ring: picks the paper's algorithm for the ring's kind.
#pragma once
#include <cstddef>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

struct PlanOptions {
  // Limit on the transfers of item-by-item forwarding (Algorithm 2 as written needs one transfer per
  // item on a link faster than its feed); beyond it the planners keep their block schedules.
  std::size_t max_transfers = 2'000'000;
};

// Unidirectional: Algorithm 1 (homogeneous) or 2; bidirectional: the homogeneous planner
// (Algorithm 3's time) or the heterogeneous one (System 6 / System 8 / paths). Validates first.
// Transfers come sorted by start time, then sender.
Plan plan_redistribution(const Ring& ring, const PlanOptions& options = {});

}  // namespace hetlb::ring
