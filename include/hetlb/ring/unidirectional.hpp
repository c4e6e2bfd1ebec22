// Planners for a unidirectional ring (paper, Sections 3 and 4). Both move x_i = delta_{start,i}
// items over link i -> i+1 (slice_unbalance.hpp), the least flow satisfying conservation.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

// Algorithm 1 (homogeneous costs): every P_i sends its x_i items during [0, x_i c]; optimal, with
// time c * max |delta_{k,l}| (Lemma 1, Theorem 1), under the paper's hypothesis L_i, T_i >= 1.
// Otherwise the blocks are delayed as needed (block_schedule.hpp) and `optimal` is set only when
// the time still meets Lemma 1's bound.
Plan plan_algorithm1(const Ring& ring, std::size_t max_transfers = 2'000'000);

// Algorithm 2 (heterogeneous costs): x_i items forwarded as soon as possible; time
// max_i x_i c_{i,i+1} (Lemma 5), optimal (Theorem 2) under the paper's hypothesis. The planner first
// tries one contiguous block per link (earliest start); when that meets Theorem 2's bound it is
// kept (optimal, n transfers at most). Otherwise it forwards item by item as soon as possible
// (runs of back-to-back items merged into one transfer), unless that needs more than
// `max_transfers` transfers, in which case the block schedule is returned (not proven optimal).
Plan plan_algorithm2(const Ring& ring, std::size_t max_transfers = 2'000'000);

// Algorithm 2's item-by-item forwarding alone (for the tests of Lemma 5): the transfers for the flow
// x (>= 0, zero on some link), nullopt beyond max_transfers. A processor faster than its feed sends
// one transfer per forwarded item, so the size grows with the items in that case.
std::optional<std::vector<Transfer>> algorithm2_asap(const Ring& ring, const std::vector<Count>& x,
                                                     std::size_t max_transfers = 2'000'000);

}  // namespace hetlb::ring
