#include "collective_status.hpp"

#include <vector>

#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi::detail {

void agree_from_rank0(int status, const std::string& message, MPI_Comm comm) {
  int header[2] = {status, static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, 0, comm);
  if (header[0] == HETLB_MPI_SUCCESS) return;
  std::vector<char> text(message.begin(), message.end());  // only rank 0's content matters
  text.resize(static_cast<std::size_t>(header[1]) + 1);
  MPI_Bcast(text.data(), header[1], MPI_CHAR, 0, comm);
  throw Error(header[0], std::string(text.data(), static_cast<std::size_t>(header[1])));
}

void agree_all(int local_status, const std::string& reason, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_status != HETLB_MPI_SUCCESS ? rank : size, reporter = size;
  MPI_Allreduce(&mine, &reporter, 1, MPI_INT, MPI_MIN, comm);
  if (reporter == size) return;
  int header[2] = {local_status, static_cast<int>(reason.size())};
  MPI_Bcast(header, 2, MPI_INT, reporter, comm);
  std::vector<char> text(reason.begin(), reason.end());
  text.resize(static_cast<std::size_t>(header[1]) + 1);
  MPI_Bcast(text.data(), header[1], MPI_CHAR, reporter, comm);
  throw Error(header[0], std::string(text.data(), static_cast<std::size_t>(header[1])));
}

}  // namespace hetlb::mpi::detail
