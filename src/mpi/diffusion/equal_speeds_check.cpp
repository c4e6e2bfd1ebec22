// The equal-times check of the bulk-synchronous mode (docs/runtime.md, "Computing time"): seconds passed
// to iteration_done() that are equal on every rank while the ranks' own computing times differ mean the
// seconds include waits (the program's collective), so the speeds measured from them follow the loads,
// not the computing. At agreement calls, once every share is known, the ranks take the extremes of the
// seconds they measured (passed, or the runtime's own view when untimed), of their own view of the last
// iteration's computing time (time between calls less the waits in the program's MPI calls) and the
// largest ratio of the second to the first, with one all-gather (Bruck's, all_gather.hpp: SMPI's
// MPI_Iallreduce is n(n - 1) messages at once, which at 256 ranks kept SimGrid busy for minutes at each
// check) and the maxima taken on every rank. Two such checks (no healthy one
// between) that find the measured seconds within speed_hysteresis of each other, the computing times
// beyond the band and that resolution, (1 + tolerance) x (1 + speed_hysteresis)^2, and every rank's
// computing time within its measured seconds (they hold the computing plus waits, not less), say so once:
// in notice() on every rank and on stderr (rank 0). The verdict does not depend on where the items are
// (speeds measured from equal seconds are proportional to the loads, whatever moved). Checks that find
// the times within the band forget and back off (8, 16, ... up to 256 calls apart); others come again
// after the same gap, the findings so far kept.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "blocked_time.hpp"
#include "clock.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

double DiffusionRuntime::own_compute_seconds(double now) const {
  const double wall = now - iteration_start_;
  if (!compute_clock_unavailable_.empty()) return wall;
  return std::max(0.0, wall - (blocked_time().seconds - blocked_at_start_));
}

void DiffusionRuntime::bsp_check_equal_speeds(std::unique_lock<std::mutex>& lock) {
  // The same verdict on every rank: the options, the agreed sums, the call count.
  if (given_speed_ > 0 || !by_time() || !shares_known_ || equal_speeds_told_ || calls_ < next_speed_check_)
    return;
  if (speeds_check_ == MPI_COMM_NULL) return;  // created at start() with measured speeds
  const double m = last_compute_seconds_, c = last_own_seconds_;
  const double mine[kSpeedsCheckValues] = {m, -m, c, -c, m > 0 ? c / m : 0.0};
  std::vector<double> all(static_cast<std::size_t>(size_) * kSpeedsCheckValues);
  const double since = now();
  speeds_gather_.start(mine);
  while (!speeds_gather_.test(all.data())) {
    if (!threaded) poll();
    bsp_check_stall(since, [&] { return fmt::format("the other ranks in the equal-speeds check (they made {})", calls_made_text()); });
    wait_a_little(lock, since);
  }
  double most[kSpeedsCheckValues];
  std::copy(mine, mine + kSpeedsCheckValues, most);
  for (std::size_t i = 0; i < all.size(); ++i) most[i % kSpeedsCheckValues] = std::max(most[i % kSpeedsCheckValues], all[i]);
  const double measured_ratio = most[0] / -most[1], time_ratio = most[2] / -most[3];
  const double h = options.speed_hysteresis;
  const bool equal = -most[1] > 0 && measured_ratio <= 1 + h + 1e-12 && most[4] <= 1 + h;
  const bool differ = -most[3] > 0 && time_ratio > (1 + options.tolerance) * (1 + h) * (1 + h);
  if (!(equal && differ)) {
    // Times within the band: a healthy run, checked less and less often, its findings forgotten. Times
    // beyond it with the measured seconds apart (a run measured right, or noise on a busy machine):
    // checked again after the same gap, the findings so far kept.
    if (!differ) {
      equal_speed_checks_ = 0;
      speed_check_gap_ = std::min<long long>(speed_check_gap_ * 2, 256);
    }
    next_speed_check_ = calls_ + speed_check_gap_;
    return;
  }
  if (++equal_speed_checks_ < 2) return;
  equal_speeds_told_ = true;
  const std::string line = fmt::format(
      "the seconds the speeds are measured from are equal on every rank (within {:g}) while the ranks' computing "
      "times differ {:.2f}-fold (call {}): they include waits, and the speeds do not measure the computing; "
      "pass each rank's computing seconds alone to "
      "iteration_done(seconds), without the waits in MPI calls, or give the speeds",
      1 + h, time_ratio, calls_);
  notice += (notice.empty() ? "" : "; ") + line;
  if (rank_ == 0) std::fprintf(stderr, "hetlb: %s\n", line.c_str());
}

}  // namespace hetlb::mpi::detail
