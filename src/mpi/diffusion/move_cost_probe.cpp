// The cost of moving one unit of work before any global step has measured it (docs/runtime.md, "Global
// steps"): the hybrid trigger weighs a step's gain against seconds_per_work x the busiest rank's work
// (the largest of the ranks' values, carried by the step's gather), and a hand-over its own (balance::
// handover_worth); with nothing known the first step would be free and taken whatever it moves. Inside
// start(), each rank holding items moves bytes through memory as a move does, without sending them:
// packed into a fresh buffer, copied into the receive buffer and into the program's storage, each
// fresh (a large buffer costs a page fault per 4 KiB on first touch: as much as the copy or more on some
// machines). It copies at most 64 KiB (its first items', or a part of the first) and scales the time to
// the bytes of those items: processor time of this thread (a rank descheduled meanwhile on an
// oversubscribed machine does not count), per item (per unit of work at the items' present costs when
// used: move_seconds_per_work). A move costs at least that (no
// transport, no wait for a partner), so a step declined on it could not have paid; the first step's
// measurement replaces it. Local: no collective.
#include <algorithm>
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
  std::size_t bytes = 0, items = 0;
  for (; items < store.size() && (items == 0 || bytes < kProbeBytes); ++items) bytes += store.wire_bytes(items);
  if (bytes == 0) return;
  const std::size_t copied = std::min(bytes, kProbeBytes);
  const double start = thread_seconds();
  std::unique_ptr<char[]> packed(new char[copied]), received(new char[copied]), stored(new char[copied]);
  std::memset(packed.get(), 1, copied);
  keep(packed.get());
  std::memcpy(received.get(), packed.get(), copied);
  keep(received.get());
  std::memcpy(stored.get(), received.get(), copied);
  keep(stored.get());
  const double seconds = (thread_seconds() - start) * static_cast<double>(bytes) / static_cast<double>(copied);
  seconds_per_item_ = seconds / static_cast<double>(items);
}

// Per unit of work at the items' present costs: the cost per item over this rank's mean cost per item.
double DiffusionRuntime::move_seconds_per_work() const {
  const double work = store.total_cost();
  return store.size() > 0 && work > 0 ? seconds_per_item_ * static_cast<double>(store.size()) / work : 0.0;
}

void DiffusionRuntime::measured_move(double seconds_per_work) {
  const double work = store.total_cost();
  if (store.size() > 0 && work > 0 && seconds_per_work > 0)
    seconds_per_item_ = seconds_per_work * work / static_cast<double>(store.size());
}

}  // namespace hetlb::mpi::detail
