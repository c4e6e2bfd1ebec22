// How long a bulk-synchronous rank may wait inside iteration_done() for the other ranks before the job
// is declared stuck (docs/runtime.md, "Misuse"). A rank that skipped or added a call, or stopped
// calling, cannot be told from a slow one by any message of the runtime: the ranks' calls are matched
// by their order, so every count the runtime exchanges is the same on every rank, and the rank out of
// step waits in the program's own MPI call, where the runtime does not run. The verdict is therefore a
// time-out relative to the program's own pace: a legitimate wait is for the slowest rank's step, and
// the time between two calls of this rank already includes such waits (the program's collective or
// halo exchange, the previous agreements). Pure, so the rule is unit-tested (stall_watch_test.cpp).
#pragma once
#include <algorithm>
#include <limits>

namespace hetlb::mpi::detail {

// The shortest automatic limit: a loaded or oversubscribed machine can hold a rank off its core for a
// good part of a second, which must not end a healthy job.
inline constexpr double kStallFloorSeconds = 5.0;

class StallWatch {
 public:
  void start(double date) { last_ = date; }
  void call(double date) {  // an iteration_done() call begins
    longest_ = std::max(longest_, date - last_);
    last_ = date;
    ++calls_;
  }
  // The longest wait (s). option > 0: that; 0: max(5 s, 10 x the longest time between two calls),
  // from the 4th call on (before, the program's pace is unknown: none); < 0: none. Past the time
  // limit, at most max(5 s, 2 x the longest time between two calls): a time-limited run ends.
  double limit(double option, bool past_time_limit) const {
    double l = std::numeric_limits<double>::infinity();
    if (option > 0)
      l = option;
    else if (option == 0 && calls_ >= 4)
      l = std::max(kStallFloorSeconds, 10 * longest_);
    if (past_time_limit) l = std::min(l, std::max(kStallFloorSeconds, 2 * longest_));
    return l;
  }
  long long calls() const { return calls_; }

 private:
  double last_ = 0, longest_ = 0;
  long long calls_ = 0;
};

}  // namespace hetlb::mpi::detail
