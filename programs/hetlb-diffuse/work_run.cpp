// The --work loop of hetlb-diffuse (work_run.hpp).
#include "work_run.hpp"

#include <algorithm>

namespace diffuse {

WorkReport run_work(hetlb::mpi::Diffusion& lb, const std::function<void*(std::size_t)>& item_of, long work,
                    const std::function<void(ItemHeader&, std::uint64_t)>& process,
                    const std::function<void(double, double)>& spend, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  WorkReport report;
  const double start = MPI_Wtime();
  const auto remaining = static_cast<std::uint64_t>(work);
  std::vector<double> all(2 * static_cast<std::size_t>(size));
  for (;;) {
    const double from = MPI_Wtime();
    double processed = 0;
    for (std::size_t i = 0; i < lb.size(); ++i) {
      auto* h = static_cast<ItemHeader*>(item_of(i));
      if (h->times >= remaining) continue;
      process(*h, lb.id(i));
      ++h->times;
      ++processed;
    }
    spend(from, processed);
    const double computed = MPI_Wtime() - from;
    if (!lb.finished()) lb.iteration_done(computed);  // items may move here (agreed hand-over)
    // Work still held after the hand-over (an item that moved carries its count with it).
    double left = 0;
    for (std::size_t i = 0; i < lb.size(); ++i) {
      const auto* h = static_cast<const ItemHeader*>(item_of(i));
      left += static_cast<double>(remaining - std::min(remaining, h->times));
    }
    const double mine[2] = {computed, left};
    MPI_Allgather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, comm);  // the program's own collective
    double longest = 0, sum = 0, work_left = 0;
    for (int r = 0; r < size; ++r) {
      longest = std::max(longest, all[2 * static_cast<std::size_t>(r)]);
      sum += all[2 * static_cast<std::size_t>(r)];
      work_left += all[2 * static_cast<std::size_t>(r) + 1];
    }
    ++report.iterations;
    report.dates.push_back(MPI_Wtime() - start);
    report.imbalance.push_back(sum > 0 ? longest / (sum / size) : 1.0);
    if (work_left == 0) break;
  }
  report.time_to_solution = report.dates.back();
  lb.stop();
  return report;
}

}  // namespace diffuse
