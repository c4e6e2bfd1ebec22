// Time for the runtime: MPI_Wtime (simulated time under SMPI), and waiting that advances it.
#pragma once
#include <mpi.h>

#ifdef HETLB_SMPI
#include <smpi/smpi.h>
#else
#include <time.h>

#include <chrono>
#include <thread>
#endif

namespace hetlb::mpi::detail {

inline double now() { return MPI_Wtime(); }

// This thread's processor time (user and system: page faults included; time the thread waits
// descheduled excluded); under SMPI the simulated time, which counts the host's computing bursts.
inline double thread_seconds() {
#ifdef HETLB_SMPI
  return now();
#else
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
#endif
}

inline void pause_for(double seconds) {
  if (!(seconds > 0)) return;
#ifdef HETLB_SMPI
  smpi_usleep(static_cast<useconds_t>(seconds * 1e6 + 0.5));
#else
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
#endif
}

// The pause between two polls of a rank that has waited `waited` seconds for the other ranks inside a
// bulk-synchronous call: 20 us at first; under SMPI it then grows with the wait (1/16 of it, at most
// 1 ms), so that a rank waiting a simulated second for the slowest polls about a thousand times instead
// of fifty thousand (each poll is a context switch of the whole simulation: 64 ranks took 6.5 min of
// host time for 84 simulated seconds). A message is then seen at most 1/16 of the wait, or 1 ms, late.
inline double wait_pause(double waited) {
  constexpr double first = 2e-5;
#ifdef HETLB_SMPI
  return waited / 16 > first ? (waited / 16 < 1e-3 ? waited / 16 : 1e-3) : first;
#else
  (void)waited;
  return first;
#endif
}

}  // namespace hetlb::mpi::detail
