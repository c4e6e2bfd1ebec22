// Replay of an iterative ring application (hetlb/ring/iterative.hpp) on SimGrid: one host per
// processor at the processor's speed, the ring's links (one item = 1 byte, bandwidth 1 / cost), one
// S4U actor per processor. Each iteration every actor executes its items (w flop each), then a
// barrier ends the iteration; before the iterations given, the ring plan from the loads the simulation
// holds to the balanced targets is computed and every transfer is sent as one message at its planned
// date after the redistribution starts, and a barrier ends the redistribution. The drift is applied to
// the simulated loads after every iteration. Without contention (the plans use each link for one
// transfer at a time) the simulated times equal the model's (run_iterations).
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/iterative.hpp"

namespace hetlb::sim {

struct RingIterationsReplay {
  double total_time = 0;           // simulated date of the last barrier
  double compute_time = 0;         // summed simulated durations of the iterations
  double redistribution_time = 0;  // summed simulated durations of the redistributions
  std::size_t redistributions = 0;
  Count data_moved = 0;            // items x links crossed
  std::vector<Count> final_loads;
  double wall_seconds = 0;
  std::size_t iterations_done = 0;  // all of them unless `stop` ended the replay
};

// Iterations x processors simulated at most.
inline constexpr double kRingIterationsReplayLimit = 4e6;

// One engine per process. Throws hetlb::Error above the limit, for a 2-processor bidirectional ring
// (SimGrid routes one way between two hosts), or when a redistribution does not end on the targets.
// `stop`, when set, is asked after every iteration: true ends the replay there (SIGINT or SIGTERM at the
// command line, hetlb/interrupt.hpp), its sums those of the iterations done. Long replays report their
// progress (hetlb/progress.hpp) when a sink is set.
RingIterationsReplay replay_ring_iterations(const ring::IterativeApp& app, const ring::Drift& drift,
                                            const std::vector<std::size_t>& redistributed_at,
                                            std::size_t iterations, const std::function<bool()>& stop = {});

}  // namespace hetlb::sim
