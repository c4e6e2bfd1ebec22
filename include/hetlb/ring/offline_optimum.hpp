// The offline optimum of an iterative ring application (iterative.hpp): the set of iterations before
// which to redistribute that minimises the total time, knowing the whole drift.
#pragma once
#include <cstddef>

#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/redistribution_policy.hpp"

namespace hetlb::ring {

// Largest instance accepted: iterations^2 x processors <= this (1,000 iterations of 64 processors).
inline constexpr double kOfflineOptimumLimit = 6.4e7;

// Dynamic programming over iterations. After a redistribution the loads are the balanced targets
// (the total never changes), so the run from a redistribution before iteration r depends on r only:
// best[r] = min over the previous redistribution q (or none) of best[q] + iterations q..r-1 + the
// plan's cost before r; O(iterations^2 x processors). Throws hetlb::Error above the limit. The result
// is the run of fixed_policy(best set) (same arithmetic as every policy).
RunResult offline_optimum(const IterativeApp& app, const Drift& drift, std::size_t iterations);

}  // namespace hetlb::ring
