// Runs that must end, under mpirun (docs/runtime.md, "The asynchronous mode"; docs/limits.md):
//   hetlb-mpi-diffusion-end-check --case stop|stop-converge|few|none|bounds [--progress calls|thread]
// Asynchronous, with wait_for_load:
//   stop:          every item on rank 0, end_on_convergence off, stop() after 3 iterations on every rank
//                  (ranks waiting for load learn that the others stop and stop too)
//   stop-converge: the same with end_on_convergence on (the run may also end by convergence first)
//   few:           one item on rank 0 and none elsewhere (fewer items than ranks), balanced by load:
//                  ends by convergence
//   none:          no item anywhere: ends by convergence
// Every item is checked held exactly once at the end. And
//   bounds:        periods and agreement intervals that would outlast any time limit are refused
// Exit 0 when the run ends and every check passes.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
// Each option out of its range: refused at construction, naming the option.
int check_bounds() {
  const std::pair<const char*, std::function<void(hetlb::mpi::DiffusionOptions&)>> cases[] = {
      {"min_balancing_period = 1e+300", [](auto& o) { o.min_balancing_period = 1e300; }},
      {"min_computing_period = 1e+300", [](auto& o) { o.min_computing_period = 1e300; }},
      {"sync_interval = 4611686018427387904",
       [](auto& o) {
         o.bulk_synchronous = true;
         o.sync_interval = 1L << 62;
       }},
      {"sync_interval_max = 4611686018427387904",
       [](auto& o) {
         o.bulk_synchronous = true;
         o.sync_interval_max = 1L << 62;
       }},
  };
  int failed = 0;
  for (const auto& [expected, set] : cases) {
    hetlb::mpi::DiffusionOptions o;
    set(o);
    std::string what = "accepted";
    try {
      hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, 8);
    } catch (const hetlb::mpi::Error& e) {
      what = e.what();
    }
    if (what.find(expected) == std::string::npos) {
      std::fprintf(stderr, "end-check: %s: %s\n", expected, what.c_str());
      failed = 1;
    }
  }
  return failed;
}
}  // namespace

int main(int argc, char** argv) {
  std::string which = "stop", progress = "calls";
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--case") which = argv[++i];
    else if (a == "--progress") progress = argv[++i];
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (which == "bounds") {
    const int failed = check_bounds();
    if (rank == 0 && !failed) std::printf("end-check: bounds: ended\n");
    MPI_Finalize();
    return failed;
  }
  const bool stops = which == "stop" || which == "stop-converge";
  const std::uint64_t items = stops ? 200 : which == "few" ? 1 : 0;
  long long held = 0, total = 0;
  {
    hetlb::mpi::DiffusionOptions o;
    o.wait_for_load = true;
    o.end_on_convergence = which != "stop";
    o.iterations = 5;
    o.progress_thread = progress == "thread";
    if (which == "few") o.balance = "load";  // a rank without items measures no speed
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(std::uint64_t));
    if (rank == 0)
      for (std::uint64_t id = 0; id < items; ++id) lb.add(id, &id);
    lb.start();
    for (long i = 0; i < 3 || !stops; ++i)
      if (!lb.iteration_done()) break;
    if (stops) lb.stop();
    held = static_cast<long long>(lb.size());
  }
  MPI_Reduce(&held, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int status = 0;
  if (rank == 0 && total != static_cast<long long>(items)) {
    std::fprintf(stderr, "end-check: %lld items held at the end; expected %llu\n", total,
                 static_cast<unsigned long long>(items));
    status = 1;
  }
  if (rank == 0 && status == 0) std::printf("end-check: %s: ended\n", which.c_str());
  MPI_Finalize();
  return status;
}
