// The distribution of a load-balanced scatter over an MPI communicator (RR-4770, Section 5: the
// MPI_Scatter of the seismic code replaced by MPI_Scatterv with the planner's counts), and the order
// in which the results come back.
// Processor k of the platform (after `count` expansion) is rank k of the communicator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/model/platform.hpp"
#include "hetlb/mpi/error.hpp"  // hetlb::mpi::Error
#include "hetlb/mpi/plan.h"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::mpi {

// How the platform's processors are bound to ranks. Position: processor k (after `count` expansion) runs
// on rank k. Host: on the ranks of its host, the host being the processor's name or, for a `count`
// entry, its name without the "-<j>" suffix, matched to MPI_Get_processor_name (HETLB_MPI_HOST in the
// environment overrides it); a host's processors go to its ranks in rank order.
enum class Binding { Position = HETLB_MPI_BIND_POSITION, Host = HETLB_MPI_BIND_HOST };

struct Distribution {
  std::vector<int> counts;        // items of each rank, in rank order
  std::vector<int> displs;        // first item of each rank in the root's buffer (prefix sums, rank order)
  std::vector<int> send_order;    // ranks in the order the root serves them, root last
  std::vector<int> gather_order;  // ranks in the order the root gathers their results
  int root = 0;
  double predicted_makespan = 0;  // equation (2) for the plan, in the platform's time unit
  double predicted_gather = 0;    // the gather after it: results leave at T_i, one at a time into the root
  std::vector<double> predicted_compute;  // Tcomp(r, counts[r]) for each rank r, the platform's time unit
  Platform platform;  // at the root only: the platform planned, processor k on rank k (empty elsewhere)
  MPI_Comm comm = MPI_COMM_NULL;  // the communicator it was planned on (checked by scatter())
  // Weighted plans (plan_distribution_weighted, docs/weighted-items.md): the ranks' blocks follow the
  // send order in the root's buffer (displs are prefix sums in send order). With the `any` layout the
  // user's buffers stay in item order and permutation[j] is the item at position j of the blocks
  // (at the root; empty otherwise), applied by Plan::scatter and Plan::gather.
  int layout = HETLB_MPI_LAYOUT_COUNTS;
  std::vector<std::int64_t> permutation;
  std::vector<std::int64_t> item_ids;  // this rank's items, in the order of its block (every plan)
  std::vector<double> weights;         // weighted plans, at the root: each item's work (for re-planning)

  std::int64_t total() const;
};

// Collective. The root checks the arguments and plans with hetlb::scatter::plan_scatter (request.root
// is set to processor `root`, request.items to n); the verdict and the plan are broadcast, so every
// rank returns the same distribution or throws the same hetlb::mpi::Error. Only the root's `n` and
// platform count; `root` must be the same on every rank (checked).
// `binding` must be the same on every rank (checked); a file whose processors name the ranks' hosts
// in another order than the ranks' is refused under Binding::Position (HETLB_MPI_E_PLATFORM).
Distribution plan_distribution(const Platform& platform, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request = {}, Binding binding = Binding::Position);
// Weighted: the root's `weights` (one per item, >= 0: the work of each item) replace n, and the plan
// is the optimum of the layout (contiguous: ranges in send order; any: any item anywhere). Only the
// root's weights and layout count.
Distribution plan_distribution_weighted(const Platform& platform, const std::vector<double>& weights,
                                        scatter::Layout layout, int root, MPI_Comm comm, scatter::Request request = {},
                                        Binding binding = Binding::Position);
Distribution plan_distribution_weighted(const std::string& platform_path, const std::vector<double>& weights,
                                        scatter::Layout layout, int root, MPI_Comm comm, scatter::Request request = {},
                                        Binding binding = Binding::Position);
// Same, the platform read by the root from a hetlb platform JSON file.
Distribution plan_distribution(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request = {}, Binding binding = Binding::Position);

// Collective. The platform of a plan from measured costs, at the root (empty elsewhere): processor k
// computes an item in rank k's `seconds_per_item` (each rank's own, > 0 and finite, else
// HETLB_MPI_E_ARG on every rank); its link from the root is affine, latency and per-item cost measured
// by the root with short timed messages (empty, then one of about 64 KB to 1 MB), when the root's
// item_bytes > 0, else free. Only the root's item_bytes counts.
Platform measured_platform(double seconds_per_item, int item_bytes, int root, MPI_Comm comm);

// This process's host name for Binding::Host: HETLB_MPI_HOST when set, else MPI_Get_processor_name.
std::string host_name();

// A communicator over the same processes whose rank i is the i-th served by the plan (root last).
MPI_Comm plan_communicator(const Distribution& distribution, MPI_Comm comm);

// Of two receive orders (the send order and its reverse), the one that completes the gather first
// when rank i's results (costing comm[i](n_i) on its link) are ready at finish[i] (send order).
struct GatherChoice {
  std::vector<std::size_t> order;  // positions in send order
  double completion = 0;
};
GatherChoice choose_gather_order(const scatter::Problem& problem, const std::vector<Count>& items,
                                 const std::vector<double>& finish);

}  // namespace hetlb::mpi
