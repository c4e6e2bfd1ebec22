// hetlb-diffuse's time-limit watchdog (watchdog.hpp).
#include "watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <mpi.h>

namespace diffuse {

Watchdog::Watchdog(double time_limit, int rank) {
#ifdef HETLB_SMPI
  time_limit = 0;  // simulated time: the simulation's own clock ends the run
#endif
  if (!(time_limit > 0)) return;
  const double grace = std::max(5.0, time_limit / 2);
  thread_ = std::thread([this, time_limit, grace, rank] {
    std::unique_lock lock(mutex_);
    if (cv_.wait_for(lock, std::chrono::duration<double>(time_limit + grace), [this] { return disarmed_; })) return;
    std::fprintf(stderr,
                 "hetlb-diffuse: rank %d: still running %g s after the --time-limit of %g s (a strategy decision "
                 "or an iteration that does not return); ending the job\n",
                 rank, grace, time_limit);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  });
}

void Watchdog::disarm() const {
  {
    std::lock_guard lock(mutex_);
    disarmed_ = true;
  }
  cv_.notify_all();
}

Watchdog::~Watchdog() {
  disarm();
  if (thread_.joinable()) thread_.join();
}

}  // namespace diffuse
