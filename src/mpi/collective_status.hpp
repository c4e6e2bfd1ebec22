// Collective verdicts: rank 0 decides, every rank learns the same status and one-line reason.
#pragma once
#include <string>

#include <mpi.h>

namespace hetlb::mpi::detail {

// Broadcasts (status, message) from rank 0; on a non-zero status throws hetlb::mpi::Error on every
// rank. Rank 0's arguments are used; the others' are ignored.
void agree_from_rank0(int status, const std::string& message, MPI_Comm comm);

// Every rank contributes a local status and reason; when any is non-zero, the lowest failing rank's
// status and reason are broadcast and thrown as hetlb::mpi::Error on every rank.
void agree_all(int local_status, const std::string& reason, MPI_Comm comm);

}  // namespace hetlb::mpi::detail
