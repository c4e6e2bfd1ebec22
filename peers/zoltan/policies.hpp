// The distributions compared with Zoltan (issue 33, static half), each computed by the library that
// owns it, as an owner per item id, and their makespan by hetlb's evaluator (RR-4770, equation 2)
// in the order the items are sent.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/solve.hpp"
#include "zoltan_partition.hpp"

namespace peers {

enum class Policy { MpiScatter, Divmod, ZoltanBlock, ZoltanRcb, HetlbLp, HetlbExact };

const std::vector<std::string>& policy_names();  // mpi-scatter, divmod, zoltan-block, zoltan-rcb, hetlb-lp, hetlb-exact
// Throws std::invalid_argument("unknown policy \"X\": expected one of ...").
Policy parse_policy(const std::string& name);
std::vector<Policy> parse_policies(const std::string& comma_separated);
std::string to_string(Policy policy);

// Computing speeds: 1 / the asymptotic per-item computation cost of each processor (file order).
std::vector<double> speeds(const hetlb::Platform& platform);

// Equal counts in rank order: MPI_Scatter's n / p each, the root keeping the n mod p left (as
// RR-4770's original code and hetlb-seismic --mode uniform); divmod: q + 1 to the first n mod p
// ranks, as mpi4py users write `q, r = divmod(n, p)` and call Scatterv.
std::vector<hetlb::Count> equal_counts(Policy policy, std::size_t processors, std::size_t root, hetlb::Count n);

struct Outcome {
  Policy policy{};
  std::vector<int> owner;                // processor (file order = rank) of each item id
  std::vector<hetlb::Count> counts;      // items of each processor, file order (from `owner`)
  std::vector<std::size_t> send_order;   // platform indices in the order the root serves them, root last
  double makespan = 0;                   // equation (2) of the counts in send_order (hetlb's evaluator)
  std::optional<double> lp_bound;        // hetlb-lp: LP (3)'s optimum + equation (4)'s guarantee
  double seconds = 0;                    // time to compute the distribution
};

// Items 0..n-1 held by the root. Zoltan policies partition `objects` (ids 0..n-1, with coordinates
// for RCB) on `comm` (one rank: NUM_GLOBAL_PARTS = processors) with part sizes from speeds; hetlb
// policies plan with hetlb::scatter::plan_scatter in bandwidth order; equal counts are in rank order.
// Conservation is checked by id (every item exactly one owner; throws std::runtime_error otherwise).
Outcome plan(Policy policy, const hetlb::Platform& platform, hetlb::Count n, const Objects& objects, MPI_Comm comm);

// Owners of items cut into contiguous ranges in rank order (what MPI_Scatterv's displacements do).
std::vector<int> contiguous_owners(const std::vector<hetlb::Count>& counts_by_rank);

// Items per processor from owners, checking every id has one owner in range.
std::vector<hetlb::Count> counts_from_owners(const std::vector<int>& owner, std::size_t processors);

// Equation (2) of `counts_by_rank` (file order) sent in `send_order` (platform indices, root last).
double model_makespan(const hetlb::Platform& platform, const std::vector<std::size_t>& send_order,
                      const std::vector<hetlb::Count>& counts_by_rank);

}  // namespace peers
