// AllGather (Bruck's algorithm, all_gather.hpp) against MPI_Allgather: 200 consecutive gathers of 3
// values per rank on every rank count the test runs with, ranks moving their gathers on at different
// paces (some start the next gather while others are still in the previous one). Exit 0 when every
// gather matches on every rank, bit for bit.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "all_gather.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int failures = 0;
  {
    constexpr int kCount = 3;
    hetlb::mpi::detail::AllGather gather;
    gather.init(comm, 3, kCount);
    std::vector<double> out(static_cast<std::size_t>(size) * kCount), expected(out.size());
    for (int round = 0; round < 200; ++round) {
      const double in[kCount] = {rank + 0.25 * round, -1.0 / (rank + 1), 1e300 * (round % 2) + rank};
      std::fill(out.begin(), out.end(), -7.0);
      gather.start(in);
      while (!gather.test(out.data()))
        if ((rank + round) % 4 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        else
          std::this_thread::yield();  // ranks share cores under --oversubscribe
      if (gather.active()) ++failures;
      MPI_Allgather(in, kCount, MPI_DOUBLE, expected.data(), kCount, MPI_DOUBLE, MPI_COMM_WORLD);
      for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i] != expected[i] && failures++ < 5)
          std::fprintf(stderr, "rank %d, gather %d, value %zu: %g, expected %g\n", rank, round, i, out[i], expected[i]);
    }
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("all-gather on %d ranks: %d mismatches\n", size, all);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
