// hetlb-diffuse --work N: time to solution of a fixed amount of work in a bulk-synchronous program.
// Every iteration each rank processes once every item it holds that still needs work, tells the
// runtime how long it computed (iteration_done(seconds): the speed estimate), then the program's own
// collective (MPI_Allgather of its computing time and remaining work) decides, the same on every rank,
// whether all work is done; the run then ends with stop(). The runtime runs in its bulk-synchronous
// mode, so an item is never in flight at an iteration boundary and is processed exactly N times.
#pragma once
#include <functional>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"
#include "items.hpp"

namespace diffuse {

struct WorkReport {
  double time_to_solution = 0;  // s from start() to the iteration that finished the work
  long iterations = 0;
  std::vector<double> dates;      // end of each iteration, s from start()
  std::vector<double> imbalance;  // max over ranks of the iteration's computing time / mean
};

// process(item, id): computes one item once (the kernel), spend(from, items): the emulated cost.
WorkReport run_work(hetlb::mpi::Diffusion& lb, const std::function<void*(std::size_t)>& item_of, long work,
                    const std::function<void(ItemHeader&, std::uint64_t)>& process,
                    const std::function<void(double, double)>& spend, MPI_Comm comm);

}  // namespace diffuse
