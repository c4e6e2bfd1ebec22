// The computing time of an untimed iteration_done() in the bulk-synchronous mode (docs/runtime.md,
// "Computing time"): the time since the previous call returned, less the time this thread spent
// meanwhile blocked in the program's own MPI calls (blocked_mpi_calls.cpp). Where the wrappers do not
// see those calls, the time between calls is used as before and the first untimed call says so, in
// notice() on every rank and once on stderr (rank 0).
#include <algorithm>
#include <cstdio>

#include "blocked_time.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

void DiffusionRuntime::probe_compute_clock() {
  compute_clock_unavailable_ = blocked_time_unavailable(hood.graph);
  MPI_Comm_dup(hood.graph, &speeds_check_);  // the equal-speeds check's (equal_speeds_check.cpp)
  speeds_gather_.init(speeds_check_, kSpeedsCheckTag, kSpeedsCheckValues);
}

double DiffusionRuntime::untimed_seconds(double now) {
  const double wall = now - iteration_start_;
  if (!options.bulk_synchronous || given_speed_ > 0) return wall;
  if (compute_clock_unavailable_.empty()) return own_compute_seconds(now);
  if (!compute_clock_told_) {
    compute_clock_told_ = true;
    const std::string line = "untimed iteration_done() measures the time between calls, waits included: " +
                             compute_clock_unavailable_ +
                             "; pass the computing seconds (iteration_done(seconds)) or give the speeds";
    notice += (notice.empty() ? "" : "; ") + line;
    if (rank_ == 0) std::fprintf(stderr, "hetlb: %s\n", line.c_str());
  }
  return wall;
}

}  // namespace hetlb::mpi::detail
