// The C interface: the C++ calls, their hetlb::mpi::Error turned into a status code (the same on every
// rank) and one line on rank 0's stderr.
#include <cstdio>

#include "hetlb/mpi/scatter.h"
#include "hetlb/mpi/scatter.hpp"

namespace {

int report(const hetlb::mpi::Error& e, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
  return e.status();
}

}  // namespace

extern "C" {

int hetlb_mpi_scatterv_counts(const char* platform_path, long long n, int root, MPI_Comm comm, int* counts,
                              int* displs, int* send_order) {
  try {
    const hetlb::mpi::Distribution d =
        hetlb::mpi::plan_distribution(std::string(platform_path ? platform_path : ""), n, root, comm);
    for (std::size_t r = 0; r < d.counts.size(); ++r) {
      if (counts) counts[r] = d.counts[r];
      if (displs) displs[r] = d.displs[r];
      if (send_order) send_order[r] = d.send_order[r];
    }
    return HETLB_MPI_SUCCESS;
  } catch (const hetlb::mpi::Error& e) {
    return report(e, comm);
  }
}

int hetlb_mpi_scatter(const void* sendbuf, long long n, MPI_Datatype type, void* recvbuf, int recv_capacity,
                      int root, const char* platform_path, MPI_Comm comm, int* count, long long* offset,
                      MPI_Comm* plan_comm) {
  try {
    const hetlb::mpi::Distribution d =
        hetlb::mpi::plan_distribution(std::string(platform_path ? platform_path : ""), n, root, comm);
    const hetlb::mpi::Share share = hetlb::mpi::scatter(sendbuf, type, recvbuf, recv_capacity, d, comm);
    if (count) *count = share.count;
    if (offset) *offset = share.offset;
    if (plan_comm) *plan_comm = hetlb::mpi::plan_communicator(d, comm);
    return HETLB_MPI_SUCCESS;
  } catch (const hetlb::mpi::Error& e) {
    return report(e, comm);
  }
}

const char* hetlb_mpi_status_string(int status) {
  switch (status) {
    case HETLB_MPI_SUCCESS: return "success";
    case HETLB_MPI_ERR_PLATFORM: return "unreadable or unplannable platform";
    case HETLB_MPI_ERR_SIZE: return "platform/communicator size mismatch";
    case HETLB_MPI_ERR_ROOT: return "root out of range";
    case HETLB_MPI_ERR_COUNT: return "item count out of range (n <= 0 or above INT_MAX per rank)";
    case HETLB_MPI_ERR_BUFFER: return "receive buffer too small or null buffer";
    case HETLB_MPI_ERR_MPI: return "MPI call failed";
  }
  return "unknown hetlb_mpi status";
}

}  // extern "C"
