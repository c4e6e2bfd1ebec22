// The n-body pattern ported with the simplest calls: bulk-synchronous mode, the program's own
// MPI_Allgatherv of every body every step, then an untimed iteration_done() at the end of the step.
// 4 ranks of emulated speeds 1, 1, 0.5, 0.25 (a step takes bodies x 0.25 ms / speed), 64 bodies each
// at the start. The program's collective makes the time between calls the same on every rank; the
// untimed call must measure the computing time (the waits in the program's MPI calls excluded), so the
// bodies move from the slow ranks to the fast ones (measuring the time between calls, they moved the
// other way: 56 62 66 72).
// --unseen: the program's MPI calls do not reach the runtime's wrappers (this build links MPI before
// hetlb_mpi): expected instead, the notice saying so on every rank (and its line on stderr).
// --seconds-with-waits: the program passes iteration_done(seconds) timed around its computing and its
// MPI_Allgatherv, waits included, so the measured speeds are equal: expected, the notice that they are
// equal while the computing times differ, on every rank (and its line on stderr).
// --gather-by-id: every step also gathers the bodies at rank 0 with gather_by_id, before the program's
// exchange (where the ranks wait): the speeds measured at the first call must already differ (the first
// gather's communicator duplicate is a wait, not computing). Checked at the end: every body held once, the slow ranks hold fewer than they
// started with, and notice() is empty (the runtime sees the program's MPI calls).
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "hetlb/mpi/diffusion.hpp"

namespace {
constexpr int kRanks = 4, kBodies = 64, kIterations = 60;
constexpr double kSpeeds[kRanks] = {1, 1, 0.5, 0.25};
constexpr double kSecondsPerBody = 0.25e-3;  // at speed 1

// Emulated computing: each body costs kSecondsPerBody / speed of this rank (a sleep: the machine's
// cores are shared by the 4 ranks).
void advance_bodies(hetlb::mpi::Diffusion& lb, double speed) {
  for (std::size_t i = 0; i < lb.size(); ++i) *static_cast<double*>(lb.item(i)) += 1;
  std::this_thread::sleep_for(std::chrono::duration<double>(static_cast<double>(lb.size()) * kSecondsPerBody / speed));
}

// The program's own exchange: every rank gathers every body (count, then positions).
std::vector<double> gather_bodies(hetlb::mpi::Diffusion& lb, int ranks) {
  const int mine = static_cast<int>(lb.size());
  std::vector<int> counts(ranks), displs(ranks, 0);
  MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 1; r < ranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> positions(mine), all(static_cast<std::size_t>(displs[ranks - 1] + counts[ranks - 1]));
  for (int i = 0; i < mine; ++i) positions[i] = *static_cast<const double*>(lb.item(i));
  MPI_Allgatherv(positions.data(), mine, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                 MPI_COMM_WORLD);
  return all;
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != kRanks) {
    if (rank == 0) std::fprintf(stderr, "compute_time_check: %d ranks; expected %d\n", ranks, kRanks);
    MPI_Finalize();
    return 2;
  }
  const bool unseen = argc > 1 && std::strcmp(argv[1], "--unseen") == 0;
  const bool with_waits = argc > 1 && std::strcmp(argv[1], "--seconds-with-waits") == 0;
  const bool by_id = argc > 1 && std::strcmp(argv[1], "--gather-by-id") == 0;
  const std::string expected_notice = unseen       ? "untimed iteration_done() measures the time between calls"
                                      : with_waits ? "the seconds the speeds are measured from are equal on every rank"
                                                   : "";
  int failed = 0;
  std::vector<int> counts(kRanks);
  {
    hetlb::mpi::DiffusionOptions o;  // measured speeds, balance by time
    o.bulk_synchronous = true;
    o.end_on_convergence = false;  // the program's own iteration count
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(double));
    for (int i = 0; i < kBodies; ++i) {
      const double position = 0;
      lb.add(static_cast<std::uint64_t>(rank * kBodies + i), &position);
    }
    lb.start();
    std::size_t gathered = 0;
    for (int it = 0; it < kIterations; ++it) {
      const double step_start = MPI_Wtime();
      advance_bodies(lb, kSpeeds[rank]);
      if (by_id) {
        std::vector<double> frame(rank == 0 ? static_cast<std::size_t>(kRanks * kBodies) : 0);
        lb.gather_by_id(nullptr, sizeof(double), frame.data(), 0);
      }
      gathered = gather_bodies(lb, kRanks).size();  // every new position, for the next forces
      if (with_waits) lb.iteration_done(MPI_Wtime() - step_start);
      else lb.iteration_done();  // at the end of the step, after the exchange
      if (by_id && it == 0) {  // the speeds of the first call: about 1, 1, 0.5, 0.25 (relative)
        double speed = lb.speed(), low = 0, high = 0;
        MPI_Allreduce(&speed, &low, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&speed, &high, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (!(high > 2 * low)) {
          if (rank == 0)
            std::fprintf(stderr, "compute_time_check: the speeds measured at the first call range from %g to %g; "
                                 "expected a 4-fold range\n", low, high);
          failed = 1;
        }
      }
    }
    lb.stop();
    const int mine = static_cast<int>(lb.size());
    MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    if (gathered != static_cast<std::size_t>(kRanks * kBodies)) {
      std::fprintf(stderr, "compute_time_check: rank %d gathered %zu bodies; expected %d\n", rank, gathered,
                   kRanks * kBodies);
      failed = 1;
    }
    const bool as_expected = expected_notice.empty() ? lb.notice().empty()
                                                     : lb.notice().find(expected_notice) != std::string::npos;
    if (!as_expected) {
      std::fprintf(stderr, "compute_time_check: rank %d: notice \"%s\"; expected %s\n", rank, lb.notice().c_str(),
                   expected_notice.empty() ? "none" : ("one with \"" + expected_notice + "\"").c_str());
      failed = 1;
    }
  }
  if (rank == 0 && expected_notice.empty()) {
    std::printf("bodies per rank at the end (speeds 1, 1, 0.5, 0.25; %d each at the start): %d %d %d %d\n", kBodies,
                counts[0], counts[1], counts[2], counts[3]);
    // Toward the speed-proportional shares 93, 93, 47, 23: the slow ranks must have given bodies away.
    if (!(counts[3] <= kBodies * 3 / 4 && counts[2] < kBodies && counts[0] > kBodies && counts[1] > kBodies)) {
      std::fprintf(stderr,
                   "compute_time_check: the bodies did not move toward the fast ranks (%d %d %d %d): the untimed "
                   "iteration_done() measured the same speed on every rank\n",
                   counts[0], counts[1], counts[2], counts[3]);
      failed = 1;
    }
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any ? 1 : 0;
}
