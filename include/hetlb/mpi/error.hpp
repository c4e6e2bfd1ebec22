// The error of hetlb's MPI library (plans, scatter, the diffusion runtime): a hetlb::Error with the C
// interface's status.
#pragma once
#include <string>

#include "hetlb/error.hpp"
#include "hetlb/mpi/error.h"

namespace hetlb::mpi {

// Raised identically on every rank of the communicator (argument errors), or on the ranks where MPI
// failed (HETLB_MPI_E_MPI): `status` is a hetlb_mpi_error (HETLB_MPI_E_*), what() the one-line reason,
// reporter() true on the one rank that prints it (the root; rank 0 when the root is in question).
class Error : public hetlb::Error {
 public:
  Error(int status, const std::string& what, bool reporter = true)
      : hetlb::Error(what), status_(status), reporter_(reporter) {}
  int status() const { return status_; }
  bool reporter() const { return reporter_; }
  int mpi_code() const { return hetlb_mpi_error_class(status_); }  // the registered MPI error class

 private:
  int status_;
  bool reporter_;
};

}  // namespace hetlb::mpi
