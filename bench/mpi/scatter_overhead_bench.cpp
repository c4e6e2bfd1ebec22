// hetlb-mpi-scatter-bench: the cost of a persistent plan's hetlb_mpi_plan_scatter / _gather against a
// bare MPI_Scatterv / MPI_Gatherv with the same counts and displacements, payloads 1 KB to 64 MB
// (MPI_BYTE items), planning excluded (timed apart: hetlb_mpi_plan_create).
//   mpirun -np 2 hetlb-mpi-scatter-bench [--max-bytes B] [--reps R]
// "unchecked": a second plan with hetlb_mpi_plan_set_checks(plan, 0), no agreement check per call.
// Each repetition times the calls in turn, in a rotating order (so drifts of the machine hit all alike),
// each from a barrier to the slowest rank's return (MPI_MAX); rank 0 prints a markdown table of the
// medians and hetlb's overhead over the bare call.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/build_info.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/plan.h"

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
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-mpi-scatter-bench")) return 0;  // before MPI or any parsing
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long long max_bytes = 64LL << 20;
  int reps = 0;  // 0: by payload, from 2001 (1 KB) down to 21 (64 MB)
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--max-bytes") max_bytes = std::atoll(argv[i + 1]);
    if (key == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
  }
  const std::string path = "/tmp/hetlb-mpi-bench-" + std::to_string(getpid()) + ".json";
  if (rank == 0) std::ofstream(path) << hetlb::io::platform_to_json(bench_platform(size));
  if (rank == 0)
    std::printf("| payload | ranks | plan_create (s) | MPI_Scatterv (s) | plan_scatter (s) | overhead | unchecked | overhead "
                "| MPI_Gatherv (s) | plan_gather (s) | overhead | unchecked | overhead |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  int failed = 0;
  for (long long bytes = 1024; bytes <= max_bytes && !failed; bytes *= 4) {
    const double plan_start = MPI_Wtime();
    hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL, unchecked = HETLB_MPI_PLAN_NULL;
    failed = hetlb_mpi_plan_create(rank == 0 ? path.c_str() : nullptr, bytes, 0, MPI_COMM_WORLD, &plan) != MPI_SUCCESS;
    const double plan_time = MPI_Wtime() - plan_start;
    if (failed) break;
    failed = hetlb_mpi_plan_create(rank == 0 ? path.c_str() : nullptr, bytes, 0, MPI_COMM_WORLD, &unchecked) != MPI_SUCCESS ||
             hetlb_mpi_plan_set_checks(unchecked, 0) != MPI_SUCCESS;
    if (failed) break;
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts);
    hetlb_mpi_plan_counts(plan, counts.data(), displs.data(), nullptr);
    const int count = counts[static_cast<std::size_t>(rank)];
    std::vector<char> send(rank == 0 ? static_cast<std::size_t>(bytes) : 0, 'x'), back(send.size());
    std::vector<char> recv(static_cast<std::size_t>(count) + 1);
    // Scatters then gathers, each group of three calls in an order that rotates with the repetition:
    // whichever call runs right after another on the same buffers finds them warm, and that must not
    // favour any of them.
    const std::vector<std::function<void()>> scatters = {
        [&] { MPI_Scatterv(send.data(), counts.data(), displs.data(), MPI_BYTE, recv.data(), count, MPI_BYTE, 0, MPI_COMM_WORLD); },
        [&] { failed |= hetlb_mpi_plan_scatter(plan, send.data(), MPI_BYTE, recv.data(), MPI_BYTE); },
        [&] { failed |= hetlb_mpi_plan_scatter(unchecked, send.data(), MPI_BYTE, recv.data(), MPI_BYTE); }};
    const std::vector<std::function<void()>> gathers = {
        [&] { MPI_Gatherv(recv.data(), count, MPI_BYTE, back.data(), counts.data(), displs.data(), MPI_BYTE, 0, MPI_COMM_WORLD); },
        [&] { failed |= hetlb_mpi_plan_gather(plan, recv.data(), MPI_BYTE, back.data(), MPI_BYTE); },
        [&] { failed |= hetlb_mpi_plan_gather(unchecked, recv.data(), MPI_BYTE, back.data(), MPI_BYTE); }};
    std::vector<std::vector<double>> scatter_times(3), gather_times(3);
    const int n = reps > 0 ? reps : std::max(21, static_cast<int>(2001 / (1 + (bytes >> 16))));
    for (int r = 0; r < n; ++r) {
      for (int k = 0; k < 3; ++k) scatter_times[(k + r) % 3].push_back(timed(scatters[(k + r) % 3], MPI_COMM_WORLD));
      for (int k = 0; k < 3; ++k) gather_times[(k + r) % 3].push_back(timed(gathers[(k + r) % 3], MPI_COMM_WORLD));
    }
    hetlb_mpi_plan_free(&plan);
    hetlb_mpi_plan_free(&unchecked);
    double m[2][3];
    for (int k = 0; k < 3; ++k) m[0][k] = median(scatter_times[k]), m[1][k] = median(gather_times[k]);
    const auto over = [](double ours, double bare) { return 100.0 * (ours - bare) / bare; };
    const std::string payload = bytes >= (1LL << 20) ? std::to_string(bytes >> 20) + " MB" : std::to_string(bytes >> 10) + " KB";
    if (rank == 0)
      std::printf("| %s | %d | %.3g | %.4g | %.4g | %+.1f%% | %.4g | %+.1f%% | %.4g | %.4g | %+.1f%% | %.4g | %+.1f%% |\n",
                  payload.c_str(), size, plan_time, m[0][0], m[0][1], over(m[0][1], m[0][0]), m[0][2],
                  over(m[0][2], m[0][0]), m[1][0], m[1][1], over(m[1][1], m[1][0]), m[1][2], over(m[1][2], m[1][0]));
  }
  if (rank == 0) std::remove(path.c_str());
  MPI_Finalize();
  return failed ? 1 : 0;
}
