// The load-balanced MPI_Scatter replacement (RR-4770, Sections 2 and 5), C++ one-shot interface
// (hetlb/mpi/plan.hpp for a plan used many times).
#pragma once
#include <cstdint>

#include <mpi.h>

#include "hetlb/mpi/distribution.hpp"
#include "hetlb/mpi/plan.hpp"

namespace hetlb::mpi {

struct Share {
  int count = 0;            // items received by this rank
  std::int64_t offset = 0;  // index of its first item in the root's buffer
};

// Collective over comm, which must be the communicator the distribution was planned on (else
// HETLB_MPI_E_COMM on every rank). The root sends each rank its block [displs[r], displs[r] + counts[r])
// of `sendbuf` in distribution.send_order over a duplicate of comm. recvbuf must hold
// recv_capacity >= counts[rank] items; a smaller capacity on any rank throws hetlb::mpi::Error
// (HETLB_MPI_E_BUFFER) on every rank before anything is sent.
Share scatter(const void* sendbuf, MPI_Datatype type, void* recvbuf, int recv_capacity,
              const Distribution& distribution, MPI_Comm comm);

}  // namespace hetlb::mpi
