// Collective verdicts: one rank decides, or every rank contributes; every rank learns the same status
// and one-line reason, and exactly one rank (the reporter) is marked to print it.
#pragma once
#include <string>

#include <mpi.h>

namespace hetlb::mpi::detail {

// Throws hetlb::mpi::Error(HETLB_MPI_E_MPI) on this rank when rc is not MPI_SUCCESS.
void check_mpi(int rc, const char* call, MPI_Comm comm);

// Broadcasts (status, message) from rank `from`; on a non-zero status throws hetlb::mpi::Error on every
// rank, reporter() true on rank `reporter`. Only `from`'s arguments are used.
void agree_from(int from, int status, const std::string& message, MPI_Comm comm, int reporter);

// Every rank contributes a local status and reason; when any is non-zero, the lowest failing rank's
// status and reason are thrown as hetlb::mpi::Error on every rank, reporter() true on rank `reporter`.
void agree_all(int local_status, const std::string& reason, MPI_Comm comm, int reporter);

// Rank `from`'s message, known afterwards on every rank (error paths).
std::string broadcast_text(const std::string& text, int from, MPI_Comm comm);

// Whether the "hetlb_mpi:" line is printed (hetlb_mpi_set_error_output).
bool error_output();

}  // namespace hetlb::mpi::detail
