// Wrappers of the blocking MPI calls a program typically waits in (the MPI profiling interface): each
// calls PMPI_* and adds the seconds spent inside to the calling thread's counter (blocked_time.hpp),
// except inside the runtime's own calls. Part of hetlb_mpi (static and shared), not of the SMPI builds:
// a program linking hetlb_mpi before MPI calls these; blocked_time_unavailable() tells when it does not.
// Weak: a program (or a profiling tool) that defines its own wrapper of one of them keeps it.
#include <chrono>

#include "blocked_time.hpp"

namespace {
template <class Call>
int timed(Call call) {
  hetlb::mpi::detail::BlockedTime& b = hetlb::mpi::detail::blocked_time();
  if (b.own_depth > 0) return call();
  const auto from = std::chrono::steady_clock::now();
  const int status = call();
  b.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  ++b.calls;
  return status;
}
}  // namespace

extern "C" {

__attribute__((weak)) int MPI_Barrier(MPI_Comm comm) {
  return timed([&] { return PMPI_Barrier(comm); });
}

__attribute__((weak)) int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return timed([&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); });
}

__attribute__((weak)) int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return timed([&] { return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

__attribute__((weak)) int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return timed(
      [&] { return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm); });
}

__attribute__((weak)) int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return timed([&] { return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); });
}

__attribute__((weak)) int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return timed([&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  });
}

__attribute__((weak)) int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return timed([&] { return PMPI_Bcast(buffer, count, datatype, root, comm); });
}

__attribute__((weak)) int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  return timed([&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); });
}

__attribute__((weak)) int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  return timed([&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); });
}

__attribute__((weak)) int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return timed([&] { return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

__attribute__((weak)) int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return timed(
      [&] { return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm); });
}

__attribute__((weak)) int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return timed([&] { return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

__attribute__((weak)) int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return timed(
      [&] { return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm); });
}

__attribute__((weak)) int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return timed([&] { return PMPI_Wait(request, status); });
}

__attribute__((weak)) int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status* array_of_statuses) {
  return timed([&] { return PMPI_Waitall(count, array_of_requests, array_of_statuses); });
}

__attribute__((weak)) int MPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  return timed([&] { return PMPI_Waitany(count, array_of_requests, index, status); });
}

__attribute__((weak)) int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                 MPI_Status array_of_statuses[]) {
  return timed(
      [&] { return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses); });
}

__attribute__((weak)) int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return timed([&] { return PMPI_Recv(buf, count, datatype, source, tag, comm, status); });
}

__attribute__((weak)) int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return timed([&] { return PMPI_Send(buf, count, datatype, dest, tag, comm); });
}

__attribute__((weak)) int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return timed([&] {
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  });
}

__attribute__((weak)) int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  return timed(
      [&] { return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status); });
}

__attribute__((weak)) int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return timed([&] { return PMPI_Probe(source, tag, comm, status); });
}

}  // extern "C"
