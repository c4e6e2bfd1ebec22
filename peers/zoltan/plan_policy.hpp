// Each policy's distribution computed by the library that owns it (Zoltan, hetlb, or equal counts), as
// an owner per item id, checked by id, with its model makespan (RR-4770, equation 2).
#pragma once
#include <optional>
#include <vector>

#include <mpi.h>

#include "policies.hpp"
#include "zoltan_partition.hpp"

namespace peers {

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

}  // namespace peers
