// Seconds the calling thread spent blocked in the program's own MPI calls, for the untimed
// iteration_done() of the bulk-synchronous mode (docs/runtime.md, "Computing time"): counted by the
// wrappers of blocked_mpi_calls.cpp (the MPI profiling interface), except inside the runtime's own
// calls (OwnCalls).
#pragma once
#include <mpi.h>

#include <string>

namespace hetlb::mpi::detail {

struct BlockedTime {
  double seconds = 0;   // inside wrapped blocking MPI calls
  long long calls = 0;  // wrapped calls counted
  int own_depth = 0;    // > 0: inside a runtime call (not counted)
};
BlockedTime& blocked_time();  // the calling thread's

// The runtime's own calls: the MPI calls made meanwhile by this thread are not counted.
class OwnCalls {
 public:
  OwnCalls() { ++blocked_time().own_depth; }
  ~OwnCalls() { --blocked_time().own_depth; }
  OwnCalls(const OwnCalls&) = delete;
  OwnCalls& operator=(const OwnCalls&) = delete;
};

// Collective over `comm`: "" when the program's MPI calls reach the wrappers on every rank, else why
// not. The probe calls MPI_Barrier as the program's code would reach it (the symbol found in the
// process's global scope) and checks that the counter moved.
std::string blocked_time_unavailable(MPI_Comm comm);
// A runtime created through the Fortran interface: Open MPI's Fortran bindings call PMPI_* directly.
void note_fortran_program();

}  // namespace hetlb::mpi::detail
