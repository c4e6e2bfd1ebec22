// Homogeneous bidirectional ring (paper, Section 5): the time of Algorithm 3 (Lemma 8, Theorem 3),
// D c with D = max(max|delta_i|, max ceil(|delta_{k,l}|/2)), reached by a flow formulation whose
// cost does not depend on the number of items (see bidirectional.hpp).
#include <algorithm>

#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/block_schedule.hpp"
#include "hetlb/ring/bounds.hpp"
#include "hetlb/ring/slice_unbalance.hpp"

namespace hetlb::ring {

Plan plan_homogeneous_bidirectional(const Ring& ring) {
  const std::size_t n = ring.size();
  const std::vector<Count> delta = unbalances(ring);
  const std::vector<Count> F = prefix_unbalance(delta);
  const double c = ring.succ_cost[0];
  Count single = 0;
  for (Count d : delta) single = std::max(single, d < 0 ? -d : d);
  const Count fmin = std::min<Count>(0, *std::min_element(F.begin(), F.end()));
  const Count fmax = std::max<Count>(0, *std::max_element(F.begin(), F.end()));
  const Count D = std::max(single, (fmax - fmin + 1) / 2);
  // |theta + F_i| <= D for all i  <=>  theta in [-D - min F, D - max F] (non-empty: max F - min F <= 2D).
  // Inside, the theta closest to the median of -F moves the fewest items.
  std::vector<Count> negF(F.size());
  for (std::size_t i = 0; i < n; ++i) negF[i] = -F[i];
  std::nth_element(negF.begin(), negF.begin() + static_cast<std::ptrdiff_t>(n / 2), negF.end());
  const Count theta = std::clamp(negF[n / 2], -D - fmin, D - fmax);
  const std::vector<Count> flow = flow_from_theta(F, theta);

  Plan p;
  p.algorithm = "algorithm-3";
  p.flow = flow;
  p.lower_bound = lemma6_bound(ring);
  p.lemma6_bound = p.lower_bound;
  if (paper_hypothesis(ring)) {
    p.method = "Theorem 3's time D c: flow theta + F_i with |flow| <= D, right-going blocks in [0, |R_i| c], "
               "left-going blocks in [(D - |R_i|) c, D c]";
    const double Dc = static_cast<double>(D) * c;
    for (std::size_t i = 0; i < n; ++i) {
      if (flow[i] > 0) p.transfers.push_back(Transfer{i, ring.succ(i), true, flow[i], 0.0, static_cast<double>(flow[i]) * c});
      if (flow[i] < 0) {
        const Count x = -flow[i];
        p.transfers.push_back(Transfer{ring.succ(i), i, false, x, static_cast<double>(D - x) * c, Dc});
      }
    }
  } else {
    p.method = "flow theta + F_i with |flow| <= D, blocks as early as possible (L_i or T_i = 0: Theorem 3 does not apply)";
    p.transfers = block_schedule(ring, flow);
  }
  p.time = last_arrival(p.transfers);
  p.optimal = p.time <= p.lower_bound * (1 + 1e-12);
  p.final_loads = final_loads(n, ring.loads, p.transfers);
  return p;
}

}  // namespace hetlb::ring
