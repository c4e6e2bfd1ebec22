// The simulator's metrics (Couturier & Giersch, Section "Metrics") gathered over the ranks after the
// end of a run, with the conservation check every run ends with. Loads are sums of item costs (the item
// counts with unit costs); conservation is checked on the items.
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "runtime.hpp"

namespace hetlb::mpi::detail {

diffusion::Metrics DiffusionRuntime::metrics() {
  if (!finished_) throw Error(HETLB_DIFFUSION_ERR_STATE, "metrics() before the end of the run");
  std::lock_guard lock(mutex_);
  const double items = static_cast<double>(store.size() + store.count(inbox_.data(), inbox_.size()));
  const double load = store.total_cost() + store.cost(inbox_.data(), inbox_.size());
  const double date = tracker_->convergence_date(0);
  const bool converged = !std::isnan(date);
  double sums[12] = {idle_,
                     converged ? date : 0.0,
                     converged ? 1.0 : 0.0,
                     moved_,
                     static_cast<double>(ctrl_messages_),
                     static_cast<double>(ctrl_skipped_),
                     static_cast<double>(data_messages_),
                     static_cast<double>(comp_iterations_),
                     static_cast<double>(lb_iterations_),
                     load,
                     load * load,
                     items};
  double maxima[5] = {converged ? date : 0.0, finish_date_ - t0_, load, -load, converged_at_};
  double s[12], m[5];
  MPI_Allreduce(sums, s, 12, MPI_DOUBLE, MPI_SUM, term_);
  MPI_Allreduce(maxima, m, 5, MPI_DOUBLE, MPI_MAX, term_);
  diffusion::Metrics r;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.converged_nodes = static_cast<int>(s[2]);
  r.converged = r.converged_nodes == size_;
  r.avg_idle_time = s[0] / size_;
  r.avg_convergence_date = r.converged_nodes > 0 ? s[1] / s[2] : nan;
  r.max_convergence_date = r.converged ? m[0] : nan;
  r.initial_total_load = initial_load_;
  r.final_total_load = s[9];
  r.data_transfer_amount = initial_load_ > 0 ? s[3] / initial_load_ : 0.0;
  const double mean = s[9] / size_;
  r.load_spread_percent = mean > 0 ? 100.0 * std::sqrt(std::max(0.0, s[10] / size_ - mean * mean)) / mean : 0.0;
  r.final_max_load = m[2];
  r.final_min_load = -m[3];
  r.ctrl_messages = static_cast<std::uint64_t>(s[4]);
  r.ctrl_messages_skipped = static_cast<std::uint64_t>(s[5]);
  r.data_messages = static_cast<std::uint64_t>(s[6]);
  r.computing_iterations = static_cast<std::uint64_t>(s[7]);
  r.balancing_iterations = static_cast<std::uint64_t>(s[8]);
  r.simulated_time = m[1];
  r.wall_seconds = m[1];
  // Global steps: the same records on every rank but for the items each sent.
  std::vector<double> sent, moved(global_steps_.size());
  for (const diffusion::GlobalStepRecord& g : global_steps_) sent.push_back(static_cast<double>(g.items));
  if (!sent.empty())  // as many on every rank; no zero-count collective (SimGrid 3.32's Open MPI all-reduce divides by it)
    MPI_Allreduce(sent.data(), moved.data(), static_cast<int>(sent.size()), MPI_DOUBLE, MPI_SUM, term_);
  r.global_steps = global_steps_;
  for (std::size_t k = 0; k < moved.size(); ++k) r.global_steps[k].items = static_cast<std::uint64_t>(moved[k]);
  termination_latency = r.converged && converged_at_ >= 0 ? m[1] - m[4] : nan;
  if (s[11] != static_cast<double>(total_items_))
    throw Error(HETLB_DIFFUSION_ERR_STATE,
                fmt::format("conservation: {} items at the end, {} at the start", s[11], total_items_));
  return r;
}

}  // namespace hetlb::mpi::detail
