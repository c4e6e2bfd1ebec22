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
// Elsewhere (tables on links, an order not sorted by bandwidth, or a frontier larger than
// kExactFrontierMaxStates) the result comes from Algorithm 2 (dp), or Algorithm 1 (dp-basic) for
// decreasing costs, and Plan::method says so.
#pragma once
#include <cstddef>
#include <string>

#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

inline constexpr std::size_t kExactFrontierMaxStates = 1 << 16;

Plan solve_exact(const Problem& problem);

// Whether the fast path applies (and why not, when it does not).
bool exact_fast_path_applies(const Problem& problem, std::string* reason = nullptr);

}  // namespace hetlb::scatter
