// The time limit's last resort in hetlb-diffuse: a run still going well past --time-limit (a strategy
// decision that never returns, a rank that never calls the runtime again) ends the job with one line.
#pragma once
#include <condition_variable>
#include <mutex>
#include <thread>

namespace diffuse {

class Watchdog {
 public:
  // time_limit 0: none (and none under SMPI). The job ends (MPI_Abort) at time_limit + max(5 s, time_limit / 2) from now.
  Watchdog(double time_limit, int rank);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  void disarm() const;  // the run has ended

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  mutable bool disarmed_ = false;
  std::thread thread_;
};

}  // namespace diffuse
