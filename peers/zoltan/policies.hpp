// The policies compared with Zoltan (issue 33, static half): their names, equal counts, speeds, and
// the makespan of a distribution by hetlb's evaluator (RR-4770, equation 2) in the order it is sent.
// No Zoltan here (the SMPI build uses it); plan_policy.hpp computes each policy's distribution.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/solve.hpp"

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

// Owners of items cut into contiguous ranges in rank order (what MPI_Scatterv's displacements do).
std::vector<int> contiguous_owners(const std::vector<hetlb::Count>& counts_by_rank);

// Items per processor from owners, checking every id has one owner in range.
std::vector<hetlb::Count> counts_from_owners(const std::vector<int>& owner, std::size_t processors);

// Equation (2) of `counts_by_rank` (file order) sent in `send_order` (platform indices, root last).
double model_makespan(const hetlb::Platform& platform, const std::vector<std::size_t>& send_order,
                      const std::vector<hetlb::Count>& counts_by_rank);

}  // namespace peers
