// Algorithm 1 of the paper (homogeneous unidirectional ring): P_{start+l} sends delta_{start,start+l}
// items, one per step of length c, from step 1 on (Lemma 3: always feasible when every processor
// holds an item before and after; Lemma 4: the redistribution completes; Theorem 1: optimal).
#include "hetlb/ring/bounds.hpp"
#include "hetlb/ring/slice_unbalance.hpp"
#include "hetlb/ring/unidirectional.hpp"

namespace hetlb::ring {

Plan plan_algorithm1(const Ring& ring, std::size_t max_transfers) {
  if (!paper_hypothesis(ring)) {
    // Lemma 3 needs L_i >= 1 and T_i >= 1; without it items must wait (Algorithm 2's planner).
    Plan p = plan_algorithm2(ring, max_transfers);
    p.method = "Algorithm 1 needs L_i, T_i >= 1; " + p.method;
    return p;
  }
  const std::vector<Count> x = unidirectional_flow(unbalances(ring));  // x_i = delta_{start,i}
  const double c = ring.succ_cost[0];
  Plan p;
  p.algorithm = "algorithm-1";
  p.method = "Algorithm 1: x_i = delta_{start,i} items per link during [0, x_i c] (Lemma 3)";
  for (std::size_t i = 0; i < ring.size(); ++i)
    if (x[i] > 0) p.transfers.push_back(Transfer{i, ring.succ(i), true, x[i], 0.0, static_cast<double>(x[i]) * c});
  p.flow = x;
  p.time = last_arrival(p.transfers);
  p.lower_bound = unidirectional_bound(ring);
  p.lemma1_bound = p.lower_bound;
  p.optimal = true;  // Theorem 1
  p.final_loads = final_loads(ring.size(), ring.loads, p.transfers);
  return p;
}

}  // namespace hetlb::ring
