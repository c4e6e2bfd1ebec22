// The per-thread counter of time blocked in the program's MPI calls and the probe telling whether the
// wrappers see those calls (blocked_time.hpp).
#include "blocked_time.hpp"

#ifndef HETLB_SMPI
#include <dlfcn.h>
#endif

#include <atomic>

namespace hetlb::mpi::detail {

namespace {
std::atomic<bool> fortran_program{false};
}

BlockedTime& blocked_time() {
  thread_local BlockedTime t;
  return t;
}

void note_fortran_program() { fortran_program = true; }

std::string blocked_time_unavailable(MPI_Comm comm) {
  std::string reason;
#ifdef HETLB_SMPI
  reason = "SMPI build: the runtime's MPI wrappers are not compiled in";
  (void)comm;
#else
  BlockedTime& b = blocked_time();
  const int depth = b.own_depth;  // the probe counts as a program's call
  b.own_depth = 0;
  const long long before = b.calls;
  using Barrier = int (*)(MPI_Comm);
  const auto program_barrier = reinterpret_cast<Barrier>(dlsym(RTLD_DEFAULT, "MPI_Barrier"));
  if (program_barrier != nullptr) program_barrier(comm);
  else PMPI_Barrier(comm);  // collective on every rank either way
  const bool seen = b.calls > before;
  b.own_depth = depth;
  if (!seen)
    reason = "the program's MPI calls do not reach the runtime's MPI wrappers (hetlb_mpi linked after MPI, or "
             "loaded privately as by a Python module)";
  else if (fortran_program)
    reason = "a Fortran program: the MPI Fortran bindings call PMPI_* directly, past the runtime's wrappers";
#endif
  int mine = reason.empty() ? 1 : 0, everywhere = 0;
#ifdef HETLB_SMPI
  MPI_Allreduce(&mine, &everywhere, 1, MPI_INT, MPI_MIN, comm);
#else
  PMPI_Allreduce(&mine, &everywhere, 1, MPI_INT, MPI_MIN, comm);
#endif
  if (everywhere == 0 && reason.empty()) reason = "the runtime's MPI wrappers are not reached on some rank";
  return reason;
}

}  // namespace hetlb::mpi::detail
