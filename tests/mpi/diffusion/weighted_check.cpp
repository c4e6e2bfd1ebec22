// Items of unequal cost under mpirun (docs/runtime.md, "Item costs"):
//   hetlb-mpi-diffusion-weighted-check --mode async|bsp --progress calls|thread [--recost]
// Rank 0 starts with all 800 items (payload: the id); odd ids cost 10, even ids 1 (set in bulk, then
// a few again one by one). Balanced by load, 5% tolerance. Every iteration each rank checks that the
// items it holds carry their payload and their cost (a cost travels with its item). With --recost every
// rank sets the cost of the items it holds whose id is a multiple of 4 to 3 from its 5th iteration on
// (the program updating costs while running; the total grows by 400). Checked at the end: every id
// held exactly once, each rank's load (sum of costs) within the tolerance of the average plus the
// amounts still carried (at most degree x the largest cost), and the item counts at least 2-fold apart
// (balancing counts would make them equal). Exit 0 when every check passes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
constexpr std::uint64_t kItems = 800;
constexpr double kTolerance = 0.05;

double cost_of(std::uint64_t id, bool recosted) {
  if (recosted && id % 4 == 0) return 3;
  return id % 2 == 1 ? 10 : 1;
}

int fail(int rank, const std::string& what) {
  std::fprintf(stderr, "weighted-check: rank %d: %s\n", rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  std::string mode = "async", progress = "calls";
  bool recost = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--recost") recost = true;
    else if (a == "--mode" && i + 1 < argc) mode = argv[++i];
    else if (a == "--progress" && i + 1 < argc) progress = argv[++i];
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  {
    hetlb::mpi::DiffusionOptions o;
    o.balance = "load";
    o.tolerance = kTolerance;
    o.iterations = 10;
    o.time_limit = 20;
    o.bulk_synchronous = mode == "bsp";
    o.progress_thread = progress == "thread";
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(std::uint64_t));
    if (rank == 0) {
      std::vector<double> costs;
      for (std::uint64_t id = 0; id < kItems; ++id) {
        lb.add(id, &id);
        costs.push_back(id % 2 == 1 ? 10.0 : 2.0);
      }
      lb.set_costs(costs);
      for (std::uint64_t id = 0; id < kItems; id += 2) lb.set_cost(id, 1.0);  // one by one
      if (lb.load() != 400 + 4000.0) return fail(rank, "load after set_costs/set_cost: " + std::to_string(lb.load()));
    }
    lb.start();
    long iteration = 0;
    do {
      ++iteration;
      for (std::size_t i = 0; i < lb.size(); ++i) {
        const std::uint64_t id = lb.id(i);
        if (*static_cast<std::uint64_t*>(lb.item(i)) != id) return fail(rank, "payload of item " + std::to_string(id));
        const double c = lb.cost(i);
        if (c != cost_of(id, false) && !(recost && c == cost_of(id, true)))
          return fail(rank, "item " + std::to_string(id) + " arrived with cost " + std::to_string(c));
      }
      if (recost && iteration >= 5) {
        for (std::size_t i = 0; i < lb.size(); ++i)
          if (lb.id(i) % 4 == 0) lb.set_cost(lb.id(i), 3.0);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    } while (lb.iteration_done());

    // Every id exactly once.
    std::vector<std::uint64_t> mine;
    for (std::size_t i = 0; i < lb.size(); ++i) mine.push_back(lb.id(i));
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<std::uint64_t> all;
    if (rank == 0) {
      for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
      all.resize(static_cast<std::size_t>(displs[size - 1] + counts[size - 1]));
    }
    MPI_Gatherv(mine.data(), count, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, 0,
                MPI_COMM_WORLD);
    if (rank == 0) {
      std::sort(all.begin(), all.end());
      for (std::uint64_t k = 0; k < kItems; ++k)
        if (all.size() != kItems || all[k] != k) return fail(rank, "ids not held exactly once at the end");
    }
    // Loads balanced (the items' costs, not their counts).
    for (std::size_t i = 0; i < lb.size(); ++i)  // items taken in at the last call may not be re-costed yet
      if (recost && lb.id(i) % 4 == 0) lb.set_cost(lb.id(i), 3.0);
    const double load = lb.load();
    double total = 0;
    MPI_Allreduce(&load, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double expected = recost ? 4800 : 4400;
    if (total != expected) return fail(rank, "total load " + std::to_string(total));
    const double average = total / size;
    const double slack = kTolerance * average + lb.degree() * 10.0;
    int lo = count, hi = count;
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    std::printf("weighted-check: rank %d: %d items, load %.0f (average %.0f, allowed +-%.0f), %ld iterations\n", rank,
                count, load, average, slack, iteration);
    if (std::fabs(load - average) > slack) status = 1;
    if (hi < 2 * lo && rank == 0) {
      std::fprintf(stderr, "weighted-check: counts %d to %d: expected clearly unequal counts\n", lo, hi);
      status = 1;
    }
    const hetlb::diffusion::Metrics m = lb.metrics();  // collective; checks conservation of the items
    if (!m.converged && rank == 0) std::fprintf(stderr, "weighted-check: not converged\n"), status = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
