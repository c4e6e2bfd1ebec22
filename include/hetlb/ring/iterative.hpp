// An iterative application on a processor ring whose load drifts, and when to redistribute it
// (Renard, Robert, Vivien, Section 8 and conclusion: "how frequently redistributions must occur").
//
// Model. P_i has speed s_i and holds L_i items; an iteration takes max_i L_i w / s_i for everybody
// (each processor computes its items, then a barrier ends the iteration; w = compute cost of one
// item at speed 1). After iteration t the drift changes the loads (drift.hpp). Before iteration t a
// policy may redistribute: the ring's optimal plan (plan.hpp) from the current loads to the
// speed-proportional targets, whose time delays iteration t.
#pragma once
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "hetlb/model/cost_function.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/problem.hpp"

namespace hetlb::ring {

struct IterativeApp {
  Ring ring;                   // link costs; ring.loads are the loads before iteration 0 (targets unused)
  std::vector<double> speeds;  // s_i > 0
  double compute_cost = 1;     // w: time of one item at speed 1
};

// Throws hetlb::Error (one line) on sizes that differ, speeds or compute cost not finite and > 0.
void validate(const IterativeApp& app);

// Speed-proportional integer targets summing to `total` (largest remainders, ties to the lower index).
std::vector<Count> balanced_targets(Count total, const std::vector<double>& speeds);

// Time and items moved (item-hops) of hetlb's plan from `loads` to `targets` on the ring's links.
// Unidirectional rings under the paper's hypothesis: Lemma 5 / Theorem 2, max_i x_i c_{i,i+1} with
// x_i = F_i - min F (O(n), equal to the planner's time); otherwise plan_redistribution's time with
// at most iterative_plan_options(n).max_transfers transfers (item-by-item forwarding beyond it falls
// back to block schedules, which keeps a run's cost O(n) per plan).
inline PlanOptions iterative_plan_options(std::size_t n) { return {16 * n + 1024}; }
struct RedistributionCost {
  double time = 0;
  Count moved = 0;
};
RedistributionCost redistribution_cost(const Ring& links, const std::vector<Count>& loads,
                                       const std::vector<Count>& targets);

// A load change after an iteration: (processor, items added or removed).
using Delta = std::vector<std::pair<std::size_t, Count>>;

// Applies a zero-sum change keeping every load >= 0 and the total unchanged: a processor gives at
// most what it holds, and when some removals fall short the gains are cut in proportion (largest
// remainders, ties to the lower index).
void apply_delta(std::vector<Count>& loads, const Delta& delta);

}  // namespace hetlb::ring
