#include "collective_status.hpp"

#include <vector>

#include <fmt/format.h>

#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi::detail {

void check_mpi(int rc, const char* call, MPI_Comm comm) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0, rank = -1;
  MPI_Error_string(rc, text, &length);
  if (comm != MPI_COMM_NULL) MPI_Comm_rank(comm, &rank);
  throw Error(HETLB_MPI_E_MPI, fmt::format("rank {}: {} failed: {}", rank, call, std::string(text, static_cast<std::size_t>(length))));
}

std::string broadcast_text(const std::string& text, int from, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  check_mpi(MPI_Bcast(&length, 1, MPI_INT, from, comm), "MPI_Bcast", comm);
  std::vector<char> buffer(text.begin(), text.end());
  buffer.resize(static_cast<std::size_t>(length) + 1);
  check_mpi(MPI_Bcast(buffer.data(), length, MPI_CHAR, from, comm), "MPI_Bcast", comm);
  return std::string(buffer.data(), static_cast<std::size_t>(length));
}

void agree_from(int from, int status, const std::string& message, MPI_Comm comm, int reporter) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  check_mpi(MPI_Bcast(&status, 1, MPI_INT, from, comm), "MPI_Bcast", comm);
  if (status == 0) return;
  throw Error(status, broadcast_text(message, from, comm), rank == reporter);
}

void agree_all(int local_status, const std::string& reason, MPI_Comm comm, int reporter) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_status != 0 ? rank : size, first = size;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce", comm);
  if (first == size) return;
  agree_from(first, local_status, reason, comm, reporter);
}

}  // namespace hetlb::mpi::detail
