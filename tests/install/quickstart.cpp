// Plan once, scatter n numbers from the root, double them, gather them back (C++, find_package).
#include <cstdio>
#include <vector>

#include <mpi.h>

#include <hetlb/mpi/plan.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, bad = 0, any_bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long long n = 100000;
  const int root = 0;
  try {
    const hetlb::mpi::Plan plan(rank == root ? argv[1] : "", rank == root ? n : 0, root, MPI_COMM_WORLD);
    std::vector<double> data(rank == root ? n : 0), mine(plan.count());
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i);
    plan.scatter(data.data(), MPI_DOUBLE, mine.data(), MPI_DOUBLE);
    for (int j = 0; j < plan.count(); ++j) {
      bad |= mine[j] != static_cast<double>(plan.offset() + j);
      mine[j] *= 2;
    }
    plan.gather(mine.data(), MPI_DOUBLE, data.data(), MPI_DOUBLE);
    for (std::size_t i = 0; i < data.size(); ++i) bad |= data[i] != 2.0 * static_cast<double>(i);
  } catch (const hetlb::mpi::Error& e) {  // thrown on every rank alike
    if (e.reporter()) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
    bad = 1;
  }
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == root) std::printf("C++: %lld items scattered and gathered back, %s\n", n, any_bad ? "WRONG" : "all checked");
  MPI_Finalize();
  return any_bad;
}
