// Planners for a bidirectional ring (paper, Sections 5 and 6).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

// Homogeneous costs c (Section 5). Algorithm 3 decreases delta_max by one per step of length c and
// ends after D = max(max|delta_i|, max ceil(|delta_{k,l}|/2)) steps (Lemma 8, Theorem 3). This
// planner reaches the same time D c without one step per item: it picks the net flow
// R_i = theta + F_i with |R_i| <= D (such an integer theta exists since max F - min F <= 2D), then
// sends every right-going block during [0, R_i c] and every left-going block during
// [(D - |R_i|) c, D c]. One-port holds (a processor sending or receiving both ways moves |delta_i| <= D
// items), and holdings hold when every forwarder of a right-going path holds an item at the start
// (L_i >= 1) and every forwarder of a left-going path keeps one at the end (T_i >= 1), which the
// paper's hypothesis gives. Time D c = Lemma 6's bound: optimal. Without the hypothesis the blocks
// are scheduled by block_schedule() and `optimal` is set only if the bound is still met.
Plan plan_homogeneous_bidirectional(const Ring& ring);

// Algorithm 3 exactly as written in the paper, one synchronous step per unit of delta_max (each step
// re-examines every slice: O(n^2) per step). Reference for the tests and the benchmarks only: its
// rules reason on unbalances, and on some rings they make a processor forward an item before it has
// arrived (the verifier reports a holdings violation; see bidirectional_test.cpp).
Plan plan_algorithm3_steps(const Ring& ring);

// System 6 restricted to net flows (Lemma 10: everything follows from theta, the flow over link
// n-1 -> 0). tau(theta) = max over processors of the one-port sending and receiving times; convex
// piecewise linear in theta with integer breakpoints.
double system6_time(const Ring& ring, const std::vector<Count>& prefix, Count theta);

struct FlowOptimum {
  Count theta = 0;
  double time = 0;
};

// Integer optimum of System 6: exact minimisation of the convex tau over integer theta by bisection
// on its slope, O(n log(max F - min F)). Every schedule induces a feasible point of System 6, so
// this is also a lower bound on every schedule (light or not).
FlowOptimum solve_system6(const Ring& ring);

// Rational optimum of System 6 (theta real). Theorem 4: an integer optimum is floor or ceil of it.
// Computed on the unit interval around the integer optimum, where tau is the max of lines.
double system6_rational_theta(const Ring& ring, Count integer_theta, double* rational_time = nullptr);

// System 8: System 6 plus the light constraint (P_i sends at most L_i items); the feasible thetas form
// the interval [max_i (-F_{i-1} - L_i), min_i (L_i - F_i)]. nullopt when empty.
std::optional<FlowOptimum> solve_system8(const Ring& ring);

// Heterogeneous bidirectional ring (Section 6). When System 8 reaches System 6's optimum the flow is
// light and Lemma 9's schedule (right-going blocks at 0, left-going ones as soon as possible) attains
// it: optimal ("system-6"). Otherwise System 8's light flow ("system-8") or, if no light flow exists,
// the best of block and path schedules (path_schedule) over a few flows ("flow-paths"). The lower bound is the
// larger of Lemma 12 and System 6's integer optimum.
Plan plan_heterogeneous_bidirectional(const Ring& ring, std::size_t max_transfers = 2'000'000);

}  // namespace hetlb::ring
