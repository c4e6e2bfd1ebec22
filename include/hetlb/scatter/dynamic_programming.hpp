// Exact dynamic programs of RR-4770, Section 3.2.
//  - solve_dp_basic: Algorithm 1, any non-negative costs, O(p n^2) time.
//  - solve_dp:       Algorithm 2, non-decreasing costs, O(p n) best case, O(p n^2) worst case.
// Both keep two rows of costs and one choice per (processor, item count) as a 32-bit integer
// (the paper's lists of cons cells are not needed): memory = 4 p (n+1) + 16 (n+1) bytes.
#pragma once
#include <cstddef>

#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

// Algorithm 1 is refused when p * n^2 / 2 exceeds this many inner steps (about 10 s of work).
inline constexpr double kDpBasicMaxSteps = 2e10;
// Both DPs are refused when the choice table would exceed this many bytes.
inline constexpr double kDpMaxTableBytes = 4e9;

Plan solve_dp_basic(const Problem& problem);
Plan solve_dp(const Problem& problem);

// Bytes of memory the DPs use for this problem (reported by the benchmarks).
std::size_t dp_memory_bytes(const Problem& problem);

}  // namespace hetlb::scatter
