// Time for the runtime: MPI_Wtime (simulated time under SMPI), and waiting that advances it.
#pragma once
#include <mpi.h>

#ifdef HETLB_SMPI
#include <smpi/smpi.h>
#else
#include <chrono>
#include <thread>
#endif

namespace hetlb::mpi::detail {

inline double now() { return MPI_Wtime(); }

inline void pause_for(double seconds) {
  if (!(seconds > 0)) return;
#ifdef HETLB_SMPI
  smpi_usleep(static_cast<useconds_t>(seconds * 1e6 + 0.5));
#else
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
#endif
}

}  // namespace hetlb::mpi::detail
