// The C++ one-shot scatter: a Plan over a duplicate of comm, used once.
#include "hetlb/mpi/scatter.hpp"

#include <fmt/format.h>

#include "collective_status.hpp"

namespace hetlb::mpi {

Share scatter(const void* sendbuf, MPI_Datatype type, void* recvbuf, int recv_capacity, const Distribution& d,
              MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(HETLB_MPI_E_COMM, "comm = MPI_COMM_NULL: expected a communicator");
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int local = 0;
  std::string why;
  int same = MPI_UNEQUAL;
  if (d.comm != MPI_COMM_NULL) MPI_Comm_compare(d.comm, comm, &same);
  const auto me = static_cast<std::size_t>(rank);
  if (same != MPI_IDENT || d.counts.size() != static_cast<std::size_t>(size)) {
    local = HETLB_MPI_E_COMM;
    why = fmt::format("the distribution was planned on another communicator ({} ranks, this one {}): plan again on this one",
                      d.counts.size(), size);
  } else if (recv_capacity < d.counts[me]) {
    local = HETLB_MPI_E_BUFFER;
    why = fmt::format("rank {}: receive buffer of {} items for a share of {} items", rank, recv_capacity, d.counts[me]);
  }
  const int reporter = d.root >= 0 && d.root < size ? d.root : 0;
  detail::agree_all(local, why, comm, reporter);
  const Plan plan(d, comm);
  plan.scatter(sendbuf, type, recvbuf, type);
  return Share{plan.count(), plan.offset()};
}

}  // namespace hetlb::mpi
