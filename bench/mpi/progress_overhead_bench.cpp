// Overhead of the diffusion runtime's calls when there is nothing to do (docs/runtime.md): progress() and
// iteration_done() on ranks holding balanced loads, no balancing step or termination wave due, next to
// the MPI_Iprobe they are built on. Rank 0 prints a table (or JSON). mpirun -np 2 hetlb-mpi-diffusion-bench
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/build_info.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "speed_estimator.hpp"

namespace {
template <typename F>
double median_ns(F&& f, long calls, int reps, MPI_Comm comm) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(comm);
    const double t = MPI_Wtime();
    for (long i = 0; i < calls; ++i) f();
    samples.push_back((MPI_Wtime() - t) / static_cast<double>(calls) * 1e9);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-mpi-diffusion-bench")) return 0;  // before MPI or any parsing
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  long calls = 200000;
  int reps = 5;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--calls") && i + 1 < argc) calls = std::atol(argv[++i]);
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--json")) json = true;
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double probe = 0, progress = 0, done = 0, done_load = 0, estimate = 0;
  {
    // The speed estimate alone (what balance = time adds to every iteration_done()).
    hetlb::mpi::detail::SpeedEstimator e(3);
    double x = 1;
    estimate = median_ns([&] { e.record(10, x += 1e-9); }, calls, reps, MPI_COMM_WORLD);
    if (!(e.speed() > 0)) std::printf("(estimator)\n");
  }
  for (const char* balance : {"load", "time"}) {
    hetlb::mpi::DiffusionOptions o;
    o.balance = balance;
    o.topology = "line";
    o.min_balancing_period = 60;   // the longest: one step at start, then none while measured
    o.iterations = 1L << 40;       // never converges during the measurement
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, 64);
    std::vector<char> item(64, 0);
    for (std::uint64_t i = 0; i < 10; ++i) lb.add(static_cast<std::uint64_t>(rank) * 10 + i, item.data());
    lb.start();
    int flag = 0;
    probe = median_ns([&] { MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); }, calls, reps,
                      MPI_COMM_WORLD);
    progress = median_ns([&] { lb.progress(); }, calls, reps, MPI_COMM_WORLD);
    (std::string(balance) == "time" ? done : done_load) =
        median_ns([&] { lb.iteration_done(); }, calls, reps, MPI_COMM_WORLD);
    lb.stop();
  }
  double worst[5] = {0, 0, 0, 0, 0}, mine[5] = {probe, progress, done, done_load, estimate};
  MPI_Reduce(mine, worst, 5, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    if (json)
      std::printf("{\"mpi_iprobe_ns\": %.1f, \"progress_ns\": %.1f, \"iteration_done_ns\": %.1f, "
                  "\"iteration_done_load_ns\": %.1f, \"speed_estimate_ns\": %.1f}\n",
                  worst[0], worst[1], worst[2], worst[3], worst[4]);
    else
      std::printf("%-40s%12s%10s\n%-40s%12.1f%10.2f\n%-40s%12.1f%10.2f\n%-40s%12.1f%10.2f\n%-40s%12.1f%10.2f\n"
                  "%-40s%12.1f%10.2f\n",
                  "call (nothing to do)", "ns/call", "x Iprobe", "MPI_Iprobe (baseline)", worst[0], 1.0,
                  "progress()", worst[1], worst[1] / worst[0], "iteration_done(), balance = time", worst[2],
                  worst[2] / worst[0], "iteration_done(), balance = load", worst[3], worst[3] / worst[0],
                  "speed estimate alone", worst[4], worst[4] / worst[0]);
  }
  MPI_Finalize();
  return 0;
}
