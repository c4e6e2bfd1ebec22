// A bare S4U message loop: the baseline of the simulation benchmark (SimGrid's own cost per event,
// measured in the same run as ours).
#pragma once
#include <cstdint>

namespace hetlb::sim {

struct LoopResult {
  std::uint64_t events = 0;  // messages delivered
  std::uint64_t dates = 0;   // distinct simulated dates (SimGrid engine rounds that advance the clock)
  double wall_seconds = 0;
};

// `nodes` actors on the generated cluster, in a ring: each sends `messages` messages to the next one
// (non-blocking) while receiving as many from the previous one. One engine per process.
// Synchronised: every message is 64 bytes, so each round of the ring ends at one date shared by all
// its messages (SimGrid's cost per date is spread over `nodes` events). Desynchronised: actor i's
// messages are 64 + 977 i bytes, so every message ends at a date of its own, as in an asynchronous
// simulation.
LoopResult bare_message_loop(int nodes, int messages, bool desynchronised = false);

}  // namespace hetlb::sim
