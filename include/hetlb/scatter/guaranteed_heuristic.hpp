// Rounded rational solutions, RR-4770 Section 3.3 (lp) and Section 4 (closed-form), with the
// guarantee of equation (4): makespan <= rational optimum + sum_j Tcomm(j,1) + max_i Tcomp(i,1).
#pragma once
#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

// Linear program (3) for affine costs, solved exactly, then the rounding scheme.
Plan solve_lp(const Problem& problem);

// Theorems 1 and 2 for linear costs (resource selection, simultaneous endings), then the rounding scheme.
Plan solve_closed_form(const Problem& problem);

// The additive term of equation (4).
double rounding_guarantee(const Problem& problem);

}  // namespace hetlb::scatter
