// Rational (divisible) relaxations of the scatter problem, for a fixed send order.
#pragma once
#include <string>
#include <vector>

#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

struct RationalSolution {
  double makespan = 0;         // optimal value of the relaxation
  std::vector<double> shares;  // rational n_i in send order, summing to n
  std::string method;
};

// RR-4770, Theorems 1 and 2 (Section 4): linear costs Tcomm(i,x) = c_i x, Tcomp(i,x) = w_i x, the root
// last with c_p = 0. Processors with c_i >= D(P_{i+1..p}) are dropped (Theorem 2), the others all
// finish at t = n D(P_1..P_p) (Theorem 1, equations (7) and (8)).
RationalSolution solve_rational_linear(const std::vector<double>& comm_slope,
                                       const std::vector<double>& compute_slope, Count items);

// D(P_i..P_p) of Section 4.1 for every suffix, after Theorem 2's resource selection; kept[i] says
// whether P_i takes part. Exposed for the tests of Theorem 2.
std::vector<double> suffix_durations(const std::vector<double>& comm_slope, const std::vector<double>& compute_slope,
                                     std::vector<bool>* kept = nullptr);

// Linear program (3) of RR-4770 for affine costs (the LP charges every processor its latencies,
// as affine functions on x >= 0). A closed method for this chain: Theorem 2's selection on the
// slopes fixes the dual, all selected processors finish together; the solution is accepted when
// primal feasible (then optimal by LP duality), otherwise GLPK solves the LP.
// Beyond kLpGlpkMaxProcessors processors the GLPK fallback is refused (12.5 s at 10,000 processors,
// over 100 s at 100,000); the closed method has no limit.
inline constexpr std::size_t kLpGlpkMaxProcessors = 20'000;
RationalSolution solve_lp_affine(const Problem& problem);

// LP (3) solved by GLPK: simplex, then the exact rational simplex (glp_exact) when `exact`.
RationalSolution solve_lp_glpk(const Problem& problem, bool exact);

// A proven lower bound on every distribution's makespan for this order: the rational optimum of the
// problem where each cost is replaced by its largest linear minorant (lower_slope()).
double rational_lower_bound(const Problem& problem);

// RR-4770, Section 3.3, rounding scheme: integers n'_i with sum n and |n'_i - n_i| < 1.
std::vector<Count> round_shares(const std::vector<double>& shares, Count items);

}  // namespace hetlb::scatter
