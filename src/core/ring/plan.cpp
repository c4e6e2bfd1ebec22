// Chooses the paper's planner for the ring's kind (Sections 3 to 6).
#include "hetlb/ring/plan.hpp"

#include <algorithm>

#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/unidirectional.hpp"

namespace hetlb::ring {

namespace {
Plan choose(const Ring& ring, const PlanOptions& o);
}

Plan plan_redistribution(const Ring& ring, const PlanOptions& options) {
  validate(ring);
  Plan p = choose(ring, options);
  auto before = [](const Transfer& a, const Transfer& b) { return a.start != b.start ? a.start < b.start : a.from < b.from; };
  if (!std::is_sorted(p.transfers.begin(), p.transfers.end(), before))
    std::stable_sort(p.transfers.begin(), p.transfers.end(), before);
  return p;
}

namespace {
Plan choose(const Ring& ring, const PlanOptions& o) {
  const bool homogeneous = is_homogeneous(ring);
  if (!ring.bidirectional()) return homogeneous ? plan_algorithm1(ring, o.max_transfers) : plan_algorithm2(ring, o.max_transfers);
  if (!homogeneous) return plan_heterogeneous_bidirectional(ring, o.max_transfers);
  Plan p = plan_homogeneous_bidirectional(ring);
  if (!p.optimal) {  // Theorem 3's construction needs L_i, T_i >= 1: try the general planner too
    Plan q = plan_heterogeneous_bidirectional(ring, o.max_transfers);
    q.lemma6_bound = p.lemma6_bound;
    q.lower_bound = std::max(q.lower_bound, p.lower_bound);
    q.optimal = q.time <= q.lower_bound * (1 + 1e-12);
    if (q.time < p.time) return q;
    p.lower_bound = q.lower_bound;
    p.optimal = p.time <= p.lower_bound * (1 + 1e-12);
  }
  return p;
}
}  // namespace

}  // namespace hetlb::ring
