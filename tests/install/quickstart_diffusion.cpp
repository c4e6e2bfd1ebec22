// Asynchronous load balancing from an installed hetlb (find_package(hetlb COMPONENTS mpi)): every item
// starts on rank 0, the ranks balance while they "compute", and at the end every id is held once.
#include <cstdio>
#include <vector>

#include <mpi.h>

#include <hetlb/mpi/diffusion.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long long total = 100LL * size;
  long long held = 0, id_sum = 0;
  try {
    hetlb::mpi::DiffusionOptions o;
    o.topology = "ring";
    o.iterations = 5;
    o.time_limit = 30;
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(double));
    if (rank == 0)
      for (long long i = 0; i < total; ++i) {
        const double x = static_cast<double>(i);
        lb.add(static_cast<std::uint64_t>(i), &x);
      }
    lb.start();
    do {
      for (std::size_t i = 0; i < lb.size(); ++i) *static_cast<double*>(lb.item(i)) += 1.0;  // the work
    } while (lb.iteration_done());
    held = static_cast<long long>(lb.size());
    for (std::size_t i = 0; i < lb.size(); ++i) id_sum += static_cast<long long>(lb.id(i));
  } catch (const hetlb::mpi::Error& e) {
    if (e.reporter()) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
    bad = 1;
  }
  long long all_held = 0, all_ids = 0;
  int any_bad = 0;
  MPI_Allreduce(&held, &all_held, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&id_sum, &all_ids, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  any_bad |= all_held != total || all_ids != total * (total - 1) / 2;
  if (rank == 0)
    std::printf("diffusion: %lld items balanced from rank 0, rank 0 holds %lld, %s\n", total, held,
                any_bad ? "WRONG" : "all held once");
  MPI_Finalize();
  return any_bad;
}
