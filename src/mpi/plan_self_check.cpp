// Plan::check (hetlb_mpi_plan_check): the plan compares each rank's measured computing time with its
// prediction Tcomp(r, n_r) and, when asked, plans again with the measured cost per item (RR-4770's
// model, Section 3.1, with Tcomp(r, x) = measured seconds / n_r * x; the links stay as they were).
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "collective_status.hpp"
#include "hetlb/mpi/plan.hpp"

namespace hetlb::mpi {

const PlanCheck& Plan::check(double seconds, double margin, bool replan) {
  using detail::check_mpi;
  if (!valid()) throw Error(HETLB_MPI_E_PLAN, "the plan is empty (moved from, or never created)", true);
  // A valid margin everywhere, then the same margin and replan everywhere (the extremes of both).
  detail::agree_all(!(margin > 0) || !std::isfinite(margin) ? HETLB_MPI_E_ARG : 0,
                    fmt::format("rank {}: hetlb_mpi_plan_check: margin = {}: expected a positive fraction (0.25: 25%)",
                                rank_, margin),
                    comm_, d_.root);
  const double mine[4] = {margin, -margin, replan ? 1.0 : 0.0, replan ? -1.0 : 0.0};
  double most[4] = {0, 0, 0, 0};
  check_mpi(MPI_Allreduce(mine, most, 4, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce", comm_);
  if (most[0] != -most[1] || most[2] != -most[3])
    throw Error(HETLB_MPI_E_ARG, "hetlb_mpi_plan_check: margin or replan differs between ranks: expected the same on every rank",
                rank_ == d_.root);
  detail::agree_all(!(seconds >= 0) || !std::isfinite(seconds) ? HETLB_MPI_E_ARG : 0,
                    fmt::format("rank {}: seconds = {}: expected the non-negative, finite time spent computing its share",
                                rank_, seconds),
                    comm_, d_.root);

  const double predicted = predicted_compute();
  struct {
    double departure;
    int rank;
  } local{count() > 0 && predicted > 0 ? std::abs(seconds - predicted) / predicted : 0.0, rank_}, worst{0, 0};
  check_mpi(MPI_Allreduce(&local, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm_), "MPI_Allreduce", comm_);
  last_check_ = {worst.departure > margin ? HETLB_MPI_PLAN_STALE : HETLB_MPI_PLAN_ON_TRACK, worst.departure, worst.rank};
  if (last_check_.status == HETLB_MPI_PLAN_ON_TRACK || !replan) return last_check_;

  // Re-plan at the root: the measured cost per item (per unit of work for weighted plans) of every rank
  // that held items (at least 1 ns per item).
  const double spent = count() > 0 ? std::max(seconds, 1e-9 * count()) : 0.0;
  std::vector<double> spent_by(static_cast<std::size_t>(size_));
  check_mpi(MPI_Gather(&spent, 1, MPI_DOUBLE, spent_by.data(), 1, MPI_DOUBLE, d_.root, comm_), "MPI_Gather", comm_);
  const bool weighted = d_.layout != HETLB_MPI_LAYOUT_COUNTS;
  Platform platform = d_.platform;  // the root's; processor k on rank k
  for (std::size_t r = 0; r < platform.processors.size() && rank_ == d_.root; ++r) {
    double amount = d_.counts[r];
    if (weighted) {  // the rank's work: the weights of the items of its block
      amount = 0;
      for (int j = d_.displs[r]; j < d_.displs[r] + d_.counts[r]; ++j)
        amount += d_.weights[static_cast<std::size_t>(d_.permutation.empty() ? j : d_.permutation[static_cast<std::size_t>(j)])];
    }
    if (spent_by[r] > 0 && amount > 0) platform.processors[r].compute = CostFunction::linear(spent_by[r] / amount);
  }
  Distribution d = weighted ? plan_distribution_weighted(platform, d_.weights,
                                                         d_.layout == HETLB_MPI_LAYOUT_ANY ? scatter::Layout::Any
                                                                                           : scatter::Layout::Contiguous,
                                                         d_.root, comm_, request_)
                            : plan_distribution(platform, d_.total(), d_.root, comm_, request_);
  d.comm = d_.comm;
  d_ = std::move(d);
  last_check_.status = HETLB_MPI_PLAN_REPLANNED;
  return last_check_;
}

}  // namespace hetlb::mpi
