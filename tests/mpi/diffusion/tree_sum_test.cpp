// TreeSum against MPI_Allreduce, in both shapes (up a tree, and direct): 200 consecutive sums of 5
// counters on every rank count the test runs with, ranks moving their sums on at different paces (some
// start the next sum while others are still in the previous one). Exit 0 when every sum matches on
// every rank. The counters carry fractions, so the direct sums must add in the same order everywhere.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "tree_sum.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int failures = 0;
  for (const int direct_up_to : {0, size}) {  // the tree, then direct
    hetlb::mpi::detail::TreeSum sum;
    sum.init(comm, 3, 5, direct_up_to);
    for (int round = 0; round < 200; ++round) {
      double in[5], out[5] = {-1, -1, -1, -1, -1}, expected[5], first[5];
      for (int i = 0; i < 5; ++i) in[i] = static_cast<double>((rank + 1) * 1000LL * (i + 1) + round * (rank % 3) - i);
      in[4] = 0.1 * (rank + 1) + 1e-7 * round;  // inexact: the order of the additions shows
      sum.start(in);
      for (int spins = 0; !sum.test(out); ++spins)
        if ((rank + round) % 4 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        else
          std::this_thread::yield();  // ranks share cores under --oversubscribe
      if (sum.active()) ++failures;
      MPI_Allreduce(in, expected, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      std::copy(out, out + 5, first);
      MPI_Bcast(first, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);  // every rank has rank 0's bits
      for (int i = 0; i < 5; ++i)
        if (out[i] != first[i] || std::abs(out[i] - expected[i]) > 1e-9 * std::abs(expected[i])) {
          if (failures++ < 5) std::fprintf(stderr, "rank %d, sum %d, counter %d: %.17g, expected %.17g (rank 0: %.17g)\n", rank, round, i, out[i], expected[i], first[i]);
        }
    }
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("tree sum on %d ranks: %d mismatches\n", size, all);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
