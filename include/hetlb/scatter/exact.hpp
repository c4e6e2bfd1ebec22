// The exact integer optimum of equation (2) for a fixed send order, fast where a proof allows it.
//
// Fast path (bisection on the makespan T with a greedy fill), exact when every non-root processor
// has a linear Tcomm with per-item costs non-decreasing along the send order (decreasing bandwidth,
// Theorem 3's order) and every cost is non-decreasing. For a given T, moving an item from a later
// non-root processor to an earlier one that can still finish by T never delays anyone (the later
// one's link is no faster), so the non-root processors are best filled greedily, each taking the
// most items that finish by T; the number m of items they take in total is then chosen to minimize
// the root's finish S(m) + Tcomp(root, n - m), a piecewise-linear function checked at its
// breakpoints. Each probe costs O(p + k) (k: points of the root's table) plus O(log n) per processor
// when a table must be inverted; the bisection runs down to adjacent floating-point values.
//
// Affine links (latencies) in bandwidth order: the same exchange shows that some optimal
// distribution uses a set of processors that all take their greedy capacity except the last one
// used; since a latency may not pay for a slow processor, the sets are explored as a Pareto
// frontier of (root's sending date, items placed), pruned by dominance, per probe.
//
// Any other order, and tables on links (non-decreasing costs): bisection on T with an exact
// feasibility test over the processors in send order, the Pareto frontier of (items placed,
// sending date) kept in the window where the rational relaxation of the remaining processors can
// still finish (detail::WindowProbe); its size is the rational slack in items, not n.
//
// When a frontier exceeds the state budget, or a cost function decreases (no exact method but
// Algorithm 1), the result is the best plan found with a proven lower bound (the largest makespan
// proven infeasible, or the rational relaxation on linear minorants), optimal = false, and `method`
// gives the gap; with ExactOptions::dp_fallback, Algorithm 2 (dp) or Algorithm 1 (dp-basic, for
// decreasing costs) is run instead, as the paper does.
#pragma once
#include <cstddef>
#include <string>

#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

inline constexpr std::size_t kExactFrontierMaxStates = 1 << 16;  // affine links in bandwidth order
inline constexpr std::size_t kExactWindowLayerStates = 1 << 17;  // any order: states in one layer
inline constexpr std::size_t kExactWindowTotalStates = 1 << 21;  // any order: states over all layers

struct ExactOptions {
  bool dp_fallback = false;  // run Algorithm 2 / Algorithm 1 where no exact method is proven
  std::size_t window_layer_states = kExactWindowLayerStates;
  std::size_t window_total_states = kExactWindowTotalStates;
};

Plan solve_exact(const Problem& problem, const ExactOptions& options = {});

// Whether every integer distribution of `problem` takes longer than T, proven by one run of the exact
// planner's feasibility test at T (false when no test applies, or it gives up). Any plan's makespan
// is then above T too, whatever the algorithm.
bool exact_proves_above(const Problem& problem, double T, const ExactOptions& options = {});

// Which proof `exact` uses on this problem: "greedy" (linear links in bandwidth order), "frontier"
// (affine links in bandwidth order), "window" (any order, non-decreasing costs) or "none" (a cost
// decreases), with the reason when it is not one of the bandwidth-order fast paths.
std::string exact_proof(const Problem& problem, std::string* reason = nullptr);

// Whether one of the bandwidth-order fast paths applies (and why not, when it does not).
bool exact_fast_path_applies(const Problem& problem, std::string* reason = nullptr);

// A cheap upper bound: the best of the uniform distribution and the rounded rational solutions on
// the costs' linear minorants and asymptotic slopes (Section 3.3's rounding), evaluated exactly.
Plan heuristic_plan(const Problem& problem);

}  // namespace hetlb::scatter
