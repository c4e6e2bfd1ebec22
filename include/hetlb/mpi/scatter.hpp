// The load-balanced MPI_Scatter replacement (RR-4770, Sections 2 and 5), C++ interface.
#pragma once
#include <cstdint>

#include <mpi.h>

#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi {

struct Share {
  int count = 0;            // items received by this rank
  std::int64_t offset = 0;  // index of its first item in the root's buffer
};

// Collective. The root sends each rank its block [displs[r], displs[r] + counts[r]) of `sendbuf` with
// point-to-point sends in distribution.send_order (decreasing bandwidth; its own block last, copied
// locally), so the order is the plan's and not the MPI implementation's. recvbuf must hold
// recv_capacity >= counts[rank] items; a smaller capacity on any rank throws hetlb::mpi::Error
// (HETLB_MPI_ERR_BUFFER) on every rank before anything is sent. The blocks travel with tag 4770 on
// `comm`: no receive from the root with MPI_ANY_TAG may be pending on `comm` during the call.
Share scatter(const void* sendbuf, MPI_Datatype type, void* recvbuf, int recv_capacity,
              const Distribution& distribution, MPI_Comm comm);

}  // namespace hetlb::mpi
