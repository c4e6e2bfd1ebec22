// Items that carry a cost: the scatter model of RR-4770 (equations 1-2) with a weight per item.
//
// Each item k has a work w_k >= 0 and a size b_k >= 0 (data sent; 1 by default, i.e. the count).
// A processor i given a set S of items takes Tcomm(i, B(S)) to receive it and Tcomp(i, W(S)) to
// compute it, with W(S) and B(S) the sums over S: the platform's per-item costs become per unit of
// work (compute) and per unit of size (comm). With every w_k = b_k = 1 this is RR-4770's model, and
// plan_scatter_weighted returns exactly plan_scatter's plan. docs/weighted-items.md gives the
// theorems used and their proofs.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/problem.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {

struct WeightedItems {
  std::vector<double> work;  // w_k, one per item, finite and >= 0
  std::vector<double> size;  // b_k; empty: 1 per item (the comm cost counts items)
  Count count() const { return static_cast<Count>(work.size()); }
  bool unit() const;         // every w_k = 1 and every b_k = 1: RR-4770's model
  void check() const;        // throws hetlb::Error naming the first bad value
};

// How items may be laid out among the processors.
//   Contiguous: items keep their order; the processors, in send order, take consecutive ranges
//               (chains-on-chains partitioning with unlike processors and single-port sends).
//   Any:        any item to any processor; the gather un-permutes them.
enum class Layout { Contiguous, Any };
Layout parse_layout(const std::string& name);  // "contiguous" or "any"; throws naming the choices
std::string to_string(Layout layout);

struct WeightedPlan {
  Layout layout = Layout::Contiguous;
  std::string method;
  std::vector<Count> items;          // n_i in send order, root last
  std::vector<double> work;          // W_i in send order
  std::vector<Count> first;          // Contiguous: first item of processor i's range, in send order
  std::vector<std::size_t> owner;    // Any: owner[k] = position in send order of item k's processor
  double makespan = 0;               // equation (2) with weights
  double lower_bound = 0;            // proven lower bound on the optimum of this layout and order
  bool optimal = false;              // proven optimal for this layout and order
  std::optional<double> guarantee;   // Any: makespan <= lower_bound + guarantee (Theorem W2)
  double contiguous_makespan = 0;    // Any: the contiguous optimum it was compared with
};

// Equation (1) with weights for an assignment: owner[k] is item k's position in send order.
Schedule evaluate_weighted(const Problem& problem, const WeightedItems& items, const std::vector<std::size_t>& owner);
// The assignment of a contiguous plan (ranges in send order, counts n_i).
std::vector<std::size_t> contiguous_owner(const std::vector<Count>& counts);

// Theorem W1: the exact contiguous optimum for this send order (bisection on the makespan; greedy
// probe with linear links in bandwidth order, dynamic programming otherwise, up to a budget).
WeightedPlan solve_weighted_contiguous(const Problem& problem, const WeightedItems& items);
// Theorem W2: largest-deficit fill towards the divisible optimum, kept only when it beats the
// contiguous optimum (which it is compared with).
WeightedPlan solve_weighted_any(const Problem& problem, const WeightedItems& items);

// Beyond this many (processors x items^2) per feasibility test, the contiguous planner without the
// greedy proof gives the best plan found and a proven lower bound instead of the optimum.
inline constexpr double kWeightedDpBudget = 4e6;

// The platform-level entry point: send order and root as in plan_scatter (`best` order is refused
// with weights); unit weights give plan_scatter's plan. Result::plan.items holds the counts.
struct WeightedResult {
  Result result;        // plan (counts), problem, schedule (with weights), root, candidates
  WeightedPlan weighted;
};
WeightedResult plan_scatter_weighted(const Platform& platform, const Request& request, const WeightedItems& items,
                                     Layout layout);

}  // namespace hetlb::scatter
