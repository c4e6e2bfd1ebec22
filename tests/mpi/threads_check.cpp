// hetlb-mpi-threads-check PLATFORM.json: two threads per process, each with its own duplicate of
// MPI_COMM_WORLD, create plans (different item counts and roots) and scatter/gather 20 times at the
// same time under MPI_THREAD_MULTIPLE; every item is checked on its rank and back at the root.
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/plan.h"

namespace {

int work(const char* platform, MPI_Comm comm, long long n, int root, int seed) {
  int rank = 0, bad = 0;
  MPI_Comm_rank(comm, &rank);
  hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
  if (hetlb_mpi_plan_create(platform, n, root, comm, &plan) != MPI_SUCCESS) return 1;
  int count = 0;
  long long offset = 0;
  hetlb_mpi_plan_share(plan, &count, &offset);
  std::vector<std::int64_t> data(rank == root ? static_cast<std::size_t>(n) : 0), back(data.size());
  std::vector<std::int64_t> mine(static_cast<std::size_t>(count));
  for (int round = 0; round < 20 && !bad; ++round) {
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::int64_t>(i) * 7 + seed + round;
    bad |= hetlb_mpi_plan_scatter(plan, data.data(), MPI_INT64_T, mine.data(), MPI_INT64_T) != MPI_SUCCESS;
    for (int j = 0; j < count; ++j) bad |= mine[static_cast<std::size_t>(j)] != (offset + j) * 7 + seed + round;
    for (std::int64_t& x : mine) x = -x;
    bad |= hetlb_mpi_plan_gather(plan, mine.data(), MPI_INT64_T, back.data(), MPI_INT64_T) != MPI_SUCCESS;
    for (std::size_t i = 0; i < back.size(); ++i) bad |= back[i] != -data[i];
  }
  bad |= hetlb_mpi_plan_free(&plan) != MPI_SUCCESS;
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE || argc != 2) {
    if (rank == 0) std::fprintf(stderr, "hetlb-mpi-threads-check: needs MPI_THREAD_MULTIPLE and a platform file\n");
    MPI_Finalize();
    return 1;
  }
  MPI_Comm a, b;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_dup(MPI_COMM_WORLD, &b);
  int bad_a = 0, bad_b = 0;
  std::thread first([&] { bad_a = work(argv[1], a, 10007, 0, 1); });
  std::thread second([&] { bad_b = work(argv[1], b, 5003, size - 1, 2); });
  first.join();
  second.join();
  int mine = bad_a + bad_b, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s: two threads, 2 x 20 scatters and gathers on %d ranks\n", total ? "FAILED" : "ok", size);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Finalize();
  return total ? 1 : 0;
}
