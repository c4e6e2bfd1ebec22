// A bare S4U message loop: the baseline of the simulation benchmark (SimGrid's own cost per event,
// measured in the same run as ours).
#pragma once
#include <cstdint>

namespace hetlb::sim {

struct LoopResult {
  std::uint64_t events = 0;  // messages delivered
  double wall_seconds = 0;
};

// `nodes` actors on the generated cluster, in a ring: each sends `messages` 64-byte messages to the
// next one (non-blocking) while receiving as many from the previous one. One engine per process.
LoopResult bare_message_loop(int nodes, int messages);

}  // namespace hetlb::sim
