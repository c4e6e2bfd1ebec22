// The C++ interface of measured plans (hetlb::mpi::Plan::measured, Plan::check), 4 ranks emulated at
// speeds 1, 1, 2, 4 by waiting: an even guess, REPLANNED after the first iteration, then ON_TRACK with
// counts near the speeds' proportions, every item checked at the root; then a refused check (margin 0)
// must throw hetlb::mpi::Error(HETLB_MPI_E_ARG) on every rank.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/plan.hpp"

namespace {

constexpr int kItems = 240;
constexpr double kCost = 1e-2;  // seconds per item at speed 1 (waits of 150 ms and more: see measured_plan_check.c)
const double kSpeeds[4] = {1, 1, 2, 4};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0) std::fprintf(stderr, "measured_plan_cpp_check: expected 4 ranks\n");
    MPI_Finalize();
    return 2;
  }
  try {
    hetlb::mpi::Plan plan = hetlb::mpi::Plan::measured(kCost, 8, kItems, 0, MPI_COMM_WORLD);
    const int expected[3] = {HETLB_MPI_PLAN_REPLANNED, HETLB_MPI_PLAN_ON_TRACK, HETLB_MPI_PLAN_ON_TRACK};
    std::vector<double> data(rank == 0 ? kItems : 0);
    for (int step = 0; step < 3; ++step) {
      std::vector<double> mine(static_cast<std::size_t>(plan.count()));
      for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i + static_cast<std::size_t>(step));
      plan.scatter(data.data(), MPI_DOUBLE, mine.data(), MPI_DOUBLE);
      const double t0 = MPI_Wtime();
      for (int j = 0; j < plan.count(); ++j) {
        bad |= mine[static_cast<std::size_t>(j)] != static_cast<double>(plan.offset() + j + step);
        mine[static_cast<std::size_t>(j)] *= 2;
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(plan.count() * kCost / kSpeeds[rank]));
      const double seconds = MPI_Wtime() - t0;
      plan.gather(mine.data(), MPI_DOUBLE, data.data(), MPI_DOUBLE);
      for (std::size_t i = 0; i < data.size(); ++i) bad |= data[i] != 2.0 * static_cast<double>(i + static_cast<std::size_t>(step));
      const hetlb::mpi::PlanCheck& c = plan.check(seconds, 0.4, true);
      if (rank == 0) std::printf("iteration %d: status %d, departure %.2f on rank %d\n", step + 1, c.status, c.departure, c.worst_rank);
      bad |= c.status != expected[step];
    }
    // Within the check's own margin (0.4) of the speeds' proportions: the plan follows the first
    // iteration's measured seconds, which depart from the emulated speeds by up to 0.36 on 4 ranks
    // oversubscribed on 2 cores under the sanitizers (0.2 failed there); the even guess is 50-100% off.
    for (int r = 0; r < size; ++r) {
      const double ideal = kItems * kSpeeds[r] / 8;
      bad |= std::abs(plan.distribution().counts[static_cast<std::size_t>(r)] - ideal) > 0.4 * ideal;
    }
    try {
      plan.check(0.1, 0.0, false);
      bad = 1;  // must have thrown
    } catch (const hetlb::mpi::Error& e) {
      bad |= e.status() != HETLB_MPI_E_ARG;
    }
  } catch (const hetlb::mpi::Error& e) {
    if (e.reporter()) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
    bad = 1;
  }
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::printf("C++ measured plan: %s\n", any ? "WRONG" : "replanned, on track, every item checked, margin 0 refused");
  MPI_Finalize();
  return any;
}
