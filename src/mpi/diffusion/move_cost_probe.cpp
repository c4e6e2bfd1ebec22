// The cost of moving one unit of work before any global step has measured it (docs/runtime.md, "Global
// steps"): the hybrid trigger weighs a step's gain against seconds_per_work x the busiest rank's work,
// a hand-over's per unit (balance::handover_worth), and the start step its whole cost; with nothing
// measured the first step would be free and taken whatever it moves. Inside start(), each rank moves
// the bytes of its first items (up to 64 KiB, at least one item) through memory as a move does, without
// sending them: packed into a fresh buffer, copied into the receive buffer and into the program's
// storage, each fresh (a large buffer costs a page fault per 4 KiB on first touch: as much as the copy
// or more on some machines). Timed in this thread's processor time (a rank descheduled meanwhile on an
// oversubscribed machine does not count), per unit of those items' cost. A move costs at least that (no
// transport, no wait for a partner), so a step declined on it could not have paid; the first step's
// measurement replaces it.
#include <cstring>
#include <memory>

#include "clock.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

namespace {
constexpr std::size_t kProbeBytes = std::size_t{64} << 10;
// Keeps the compiler from eliding the copies (their results are never read).
void keep(const char* p) { asm volatile("" : : "r"(p) : "memory"); }
}  // namespace

void DiffusionRuntime::probe_move_cost() {
  std::size_t bytes = 0;
  double cost = 0;
  for (std::size_t i = 0; i < store.size() && (i == 0 || bytes < kProbeBytes); ++i) {
    bytes += store.wire_bytes(i);
    cost += store.cost(i);
  }
  if (bytes == 0 || !(cost > 0)) return;
  const double start = thread_seconds();
  std::unique_ptr<char[]> packed(new char[bytes]), received(new char[bytes]), stored(new char[bytes]);
  std::memset(packed.get(), 1, bytes);
  keep(packed.get());
  std::memcpy(received.get(), packed.get(), bytes);
  keep(received.get());
  std::memcpy(stored.get(), received.get(), bytes);
  keep(stored.get());
  seconds_per_work_ = (thread_seconds() - start) / cost;
}

}  // namespace hetlb::mpi::detail
