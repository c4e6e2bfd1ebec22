// Replay of a ring redistribution schedule (Renard, Robert, Vivien) on SimGrid: one host per
// processor, one private link per ring direction whose bandwidth moves one item (1 byte) in the
// link's cost. Every transfer starts at its planned date and sends its items one after another,
// each as soon as the sender holds it; the simulated dates are reported beside the plan's, and the
// final loads are checked against the targets.
#pragma once
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::sim {

struct ReplayedTransfer {
  double start = 0, end = 0;  // simulated: first item leaves, last item arrives
};

struct RingReplay {
  std::vector<ReplayedTransfer> transfers;  // as the plan's
  std::vector<Count> final_loads;
  double time = 0;  // last arrival
  double wall_seconds = 0;
};

// At most this many items are moved one message each.
inline constexpr Count kRingReplayMaxItems = 1'000'000;

// One engine per process. Throws hetlb::Error for a 2-processor bidirectional ring (SimGrid routes
// one way between two hosts), too many items, or final loads that differ from the targets.
RingReplay replay_ring(const ring::Ring& ring, const ring::Plan& plan);

}  // namespace hetlb::sim
