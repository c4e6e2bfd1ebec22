// hetlb-mpi-scatter-bench: the cost of hetlb::mpi::scatter against a bare MPI_Scatterv with the same
// counts and displacements, payloads 1 KB to 64 MB (MPI_BYTE items), planning excluded (timed apart).
//   mpirun -np 4 hetlb-mpi-scatter-bench [--max-bytes B] [--reps R]
// Rank 0 prints a markdown table: median times over R repetitions (each timed from a barrier to the
// slowest rank's return, MPI_MAX) and the overhead of hetlb over MPI_Scatterv.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/scatter.hpp"

namespace {

// K processors with different speeds and links (linear costs), processor k = rank k, root 0.
hetlb::Platform bench_platform(int size) {
  hetlb::Platform p;
  p.name = "bench";
  for (int k = 0; k < size; ++k)
    p.processors.push_back({"p" + std::to_string(k), hetlb::CostFunction::linear(1e-9 * (1 + (k * 3) % 5)),
                            hetlb::CostFunction::linear(k == 0 ? 0.0 : 1e-10 * (1 + (k * 5) % 7)), std::nullopt});
  return p;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double timed(F&& f, MPI_Comm comm) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  f();
  double mine = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long long max_bytes = 64LL << 20;
  int reps = 15;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--max-bytes") max_bytes = std::atoll(argv[i + 1]);
    if (key == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
  }
  const hetlb::Platform platform = bench_platform(size);
  if (rank == 0)
    std::printf("| payload | ranks | plan (s) | MPI_Scatterv (s) | hetlb scatter (s) | overhead |\n"
                "|---|---|---|---|---|---|\n");
  for (long long bytes = 1024; bytes <= max_bytes; bytes *= 4) {
    const double plan_start = MPI_Wtime();
    const hetlb::mpi::Distribution d = hetlb::mpi::plan_distribution(platform, bytes, 0, MPI_COMM_WORLD);
    const double plan_time = MPI_Wtime() - plan_start;
    std::vector<char> send(rank == 0 ? static_cast<std::size_t>(bytes) : 0, 'x');
    std::vector<char> recv(static_cast<std::size_t>(d.counts[static_cast<std::size_t>(rank)]) + 1);
    const int count = d.counts[static_cast<std::size_t>(rank)];
    std::vector<double> bare, ours;
    for (int r = 0; r < reps; ++r) {
      bare.push_back(timed([&] {
        MPI_Scatterv(send.data(), d.counts.data(), d.displs.data(), MPI_BYTE, recv.data(), count, MPI_BYTE, 0,
                     MPI_COMM_WORLD);
      }, MPI_COMM_WORLD));
      ours.push_back(timed([&] { hetlb::mpi::scatter(send.data(), MPI_BYTE, recv.data(), count, d, MPI_COMM_WORLD); },
                           MPI_COMM_WORLD));
    }
    const double b = median(bare), o = median(ours);
    const std::string payload = bytes >= (1LL << 20) ? std::to_string(bytes >> 20) + " MB" : std::to_string(bytes >> 10) + " KB";
    if (rank == 0)
      std::printf("| %s | %d | %.3g | %.4g | %.4g | %+.1f%% |\n", payload.c_str(), size, plan_time, b, o,
                  100.0 * (o - b) / b);
  }
  MPI_Finalize();
  return 0;
}
