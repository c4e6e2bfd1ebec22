// The best send order (RR-4770 Section 4.4 searches it exhaustively; Theorem 3 settles the linear
// rational case). Every order is scored by its exact integer optimum (solve_exact).
//  - Branch and bound over prefixes for small platforms: a prefix's bound is the rational optimum
//    (linear minorants of the costs, Theorems 1-2) with the prefix first and the other processors
//    in bandwidth order. Why it is a bound: the suffix duration D(P_i..P_p) of Section 4.1 only
//    grows with D(P_{i+1}..P_p), and Theorem 3 makes the bandwidth order minimize the remaining
//    processors' D; integer optima are above rational ones, real costs above their minorants.
//    Processors with identical costs are interchangeable: only one of them is branched on.
//  - Beyond that, or past the evaluation budget: local search (moves of one processor, first
//    improvement) from the bandwidth order and two latency-aware orders, each order scored in O(p) by
//    its best rounded relaxation (a feasible plan, RR-4770 Section 3.3); the best few orders seen are
//    then scored exactly. (Scoring every move exactly costs seconds per order when latencies are
//    large and the order is far from bandwidth order.)
// The bound at the empty prefix is a proven lower bound over all orders.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/exact.hpp"

namespace hetlb::scatter {

// The largest platform searched: the local search costs max_estimates x O(p) (78 s at 10,000
// processors with the default 20,000 estimates, on one core of the reference machine).
inline constexpr std::size_t kOrderSearchMaxProcessors = 10'000;

struct OrderSearchOptions {
  std::size_t branch_and_bound_max = 12;  // processors (root included) searched exhaustively
  std::size_t max_evaluations = 2000;     // exact evaluations of complete orders
  std::size_t max_estimates = 20000;      // local search: orders scored by their rounded relaxation
  std::size_t shortlist = 4;              // local search: best orders then evaluated exactly
  ExactOptions exact;
};

struct OrderSearch {
  std::vector<std::size_t> order;  // best order found, platform indices, root last
  double makespan = 0;             // its exact integer optimum
  double bandwidth_makespan = 0;   // the bandwidth order's (Theorem 3)
  double lower_bound = 0;          // proven lower bound over every order
  bool proven = false;             // the best over every order (the search completed)
  std::size_t evaluations = 0;     // exact
  std::size_t estimates = 0;       // rounded relaxations (local search)
  std::string method;
};

OrderSearch search_order(const Platform& platform, std::size_t root, Count items, const OrderSearchOptions& options = {});

}  // namespace hetlb::scatter
