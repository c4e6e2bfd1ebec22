// The time of the plan that rebalances the targets after one drift, from the drift's entries alone
// (the model policy's "every iteration" counterfactual, redistribution_policy.hpp).
#pragma once
#include <vector>

#include "hetlb/ring/iterative.hpp"

namespace hetlb::ring {

// On a unidirectional ring whose targets are all >= 1 (Theorem 2's hypothesis, with every load >= 1
// after the drift), the plan's time is max_j x_j c_{j,j+1}, x the prefix sums of (load - target) less
// their minimum: they are constant between the processors the drift touches, so with a sparse table of
// the link costs (O(n log n) once) a drift of d entries costs O(d log d). Otherwise (bidirectional
// ring, a target or a drifted load below 1) the time is redistribution_cost's, O(n) or more.
class DriftPlanCost {
 public:
  DriftPlanCost(const Ring& links, const std::vector<Count>& targets);
  // Theorem 2's closed form applies to every drift that leaves the loads >= 1.
  bool closed_form() const { return closed_form_; }
  // Time of redistribution_cost(links, targets moved by apply_delta(delta), targets).
  double time(const Delta& delta);

 private:
  double largest_cost(std::size_t a, std::size_t b) const;  // max of succ_cost over [a, b), a < b

  const Ring* links_;
  const std::vector<Count>* targets_;
  bool closed_form_;
  std::vector<Count> loads_;                // the targets, moved by a drift only inside time() (fallback)
  std::vector<std::vector<double>> table_;  // table_[l][i] = max of succ_cost over [i, i + 2^l)
  Delta moved_;
};

}  // namespace hetlb::ring
