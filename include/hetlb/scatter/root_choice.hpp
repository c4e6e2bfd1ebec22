// Choice of the root processor, RR-4770 Section 3.4: the data sit on one machine (the platform's
// root); any processor may be the root, at the price of first moving the data there. The best root
// minimizes transfer + scatter makespan over the p candidates.
//
// Solving the scatter for every candidate costs p solves (quadratic and more). The choice is made by
// branch and bound instead, and stays exactly the same: each candidate first gets a proven lower
// bound on its total (transfer + a lower bound on any plan's makespan with that root, RootBounds),
// candidates are solved in increasing order of that bound, and those whose bound exceeds the best
// total found are never solved (their total can only be larger). Bounds are O(1) per candidate
// (shared prefix sums), then O(p) (the rational relaxation of its order) for the few that survive,
// then one feasibility test of the exact planner at the makespan that would tie the best total (its
// order sorted and tested in O(p log p)); roots with the same problem (identical processors next to
// each other in the send order) are solved once.
#pragma once
#include <functional>
#include <vector>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/send_order.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {

// Time to move `items` items from the data's holder to `candidate`: zero for the holder, the
// processor's `transfer` model when given, else its comm model (its link in a star network).
double root_transfer_cost(const Platform& platform, std::size_t candidate, Count items);

// Proven lower bounds on the makespan of every plan (any algorithm, integer or rational) of `items`
// items with candidate r as the root, costs replaced by their linear minorants (lower_slope()):
//  - cheap(r), O(1): processor i finishes at least (c_i + w_i) n_i after 0 (the root: w_r n_r), and
//    the receptions share the root's port, so the last ends at least c_min (n - n_r) after 0;
//  - rational(r), O(p): the rational optimum of Theorems 1-2 for the policy's send order with r last
//    (for `best`, the bandwidth order of the minorants: Theorem 3 makes it the best rational order),
//    the value rational_lower_bound() gives on that problem.
class RootBounds {
 public:
  RootBounds(const Platform& platform, Count items, OrderPolicy policy);
  double cheap(std::size_t r) const;
  double rational(std::size_t r) const;
  // The first processor of r's run of consecutive processors in the send order with the same
  // compute, comm and transfer costs: every root in a run has the same problem (the same costs in
  // the same order), so the same makespan. r itself for `best` (a searched order).
  std::size_t same_problem_as(std::size_t r) const { return same_[r]; }

 private:
  std::vector<double> c_, w_;          // minorant slopes per platform index
  std::vector<double> before_, after_;  // sums of 1/(c_i + w_i) over indices below / above
  std::vector<std::size_t> zero_;      // indices with c_i + w_i = 0 (a free processor)
  std::vector<std::size_t> order_;     // the send order of all processors (root removed per candidate)
  std::vector<std::size_t> same_;      // see same_problem_as()
  std::size_t cmin_ = 0, cmin2_ = 0;   // indices of the two smallest c_i
  double n_ = 0;
};

// Evaluates the candidates with `makespan_with_root` and returns the best (lowest index on ties),
// the same root as evaluating every one. With `lower_bound` (a proven lower bound on
// makespan_with_root(r)), candidates are solved by increasing transfer + bound and the others are
// skipped; a skipped candidate is listed with its bound as makespan and bound_only set.
// With `proves_above(r, T)` (true only when every plan with root r provably takes longer than T),
// a candidate whose bounds do not settle it is first tested at the makespan that would tie the best
// total, one feasibility test instead of a solve.
std::size_t choose_root(const Platform& platform, Count items,
                        const std::function<double(std::size_t)>& makespan_with_root,
                        std::vector<RootCandidate>* candidates, const RootBounds* bounds = nullptr,
                        const std::function<bool(std::size_t, double)>& proves_above = {});

}  // namespace hetlb::scatter
