#include "hetlb/mpi/scatter.hpp"

#include <fmt/format.h>

#include "collective_status.hpp"

namespace hetlb::mpi {

namespace {
constexpr int kTag = 4770;  // RR-4770
}

Share scatter(const void* sendbuf, MPI_Datatype type, void* recvbuf, int recv_capacity,
              const Distribution& d, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto me = static_cast<std::size_t>(rank);
  const int count = me < d.counts.size() ? d.counts[me] : 0;
  int local = HETLB_MPI_SUCCESS;
  std::string why;
  if (d.counts.size() != static_cast<std::size_t>(size) || d.send_order.size() != d.counts.size()) {
    local = HETLB_MPI_ERR_SIZE;
    why = fmt::format("the distribution has {} ranks, the communicator {}", d.counts.size(), size);
  } else if (recv_capacity < count || (count > 0 && recvbuf == nullptr)) {
    local = HETLB_MPI_ERR_BUFFER;
    why = fmt::format("rank {}: receive buffer of {} items for a share of {} items", rank, recv_capacity, count);
  } else if (rank == d.root && d.total() > 0 && sendbuf == nullptr) {
    local = HETLB_MPI_ERR_BUFFER;
    why = fmt::format("root {}: null send buffer for {} items", rank, d.total());
  }
  detail::agree_all(local, why, comm);

  if (rank == d.root) {
    MPI_Aint lower = 0, extent = 0;
    MPI_Type_get_extent(type, &lower, &extent);
    const char* base = static_cast<const char*>(sendbuf);
    for (int r : d.send_order) {  // the plan's order: decreasing bandwidth, root last
      const auto ru = static_cast<std::size_t>(r);
      if (d.counts[ru] == 0) continue;
      const char* block = base + static_cast<MPI_Aint>(d.displs[ru]) * extent;
      if (r == rank)
        MPI_Sendrecv(block, d.counts[ru], type, rank, kTag, recvbuf, count, type, rank, kTag, comm, MPI_STATUS_IGNORE);
      else
        MPI_Send(block, d.counts[ru], type, r, kTag, comm);
    }
  } else if (count > 0) {
    MPI_Recv(recvbuf, count, type, d.root, kTag, comm, MPI_STATUS_IGNORE);
  }
  return Share{count, d.displs[me]};
}

}  // namespace hetlb::mpi
