// Heterogeneous bidirectional ring (paper, Section 6): System 6 when its optimal flow is light
// (Lemma 9's schedule, Theorem 4), System 8 otherwise, else the best block schedule found; the lower
// bound is max(Lemma 12, System 6's integer optimum).
#include <algorithm>

#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/block_schedule.hpp"
#include "hetlb/ring/bounds.hpp"
#include "hetlb/ring/slice_unbalance.hpp"

namespace hetlb::ring {

namespace {
bool meets_bound(double time, double bound) { return time <= bound * (1 + 1e-12); }
constexpr std::size_t kLemma12SliceLimit = 2000;  // the slice terms cost O(n^2)
}  // namespace

Plan plan_heterogeneous_bidirectional(const Ring& ring, std::size_t max_transfers) {
  const std::size_t n = ring.size();
  const std::vector<Count> F = prefix_unbalance(unbalances(ring));
  const FlowOptimum s6 = solve_system6(ring);
  double rational_time = 0;
  system6_rational_theta(ring, s6.theta, &rational_time);

  Plan p;
  p.system6_bound = s6.time;
  p.system6_rational = rational_time;
  p.lemma12_bound = lemma12_bound(ring, n <= kLemma12SliceLimit);
  p.lower_bound = std::max(s6.time, *p.lemma12_bound);

  bool have = false;
  std::size_t budget = max_transfers;  // item-by-item transfers, over all the fallbacks
  auto take = [&](std::vector<Transfer> ts, std::vector<Count> flow, const char* algorithm, const std::string& method) {
    const double t = last_arrival(ts);
    if (have && t >= p.time) return;
    have = true;
    p.algorithm = algorithm;
    p.method = method;
    p.transfers = std::move(ts);
    p.time = t;
    p.flow = std::move(flow);
  };
  auto consider = [&](Count theta, const char* algorithm, const std::string& method, bool paths) {
    std::vector<Count> flow = flow_from_theta(F, theta);
    bool neg = false, pos = false;
    for (Count f : flow) {
      neg |= f <= 0;
      pos |= f >= 0;
    }
    if (!neg || !pos) return;  // circulating
    take(block_schedule(ring, flow), flow, algorithm, method + ", one block per link as early as possible");
    if (paths && !meets_bound(p.time, p.lower_bound)) {
      bool capped = false;
      std::vector<Transfer> ts = path_schedule(ring, flow, budget, &capped);
      budget -= std::min(budget, ts.size());
      take(std::move(ts), flow, algorithm,
           method + ", each one-way path by Algorithm 2, left-going paths after their shared end points" +
               (capped ? " (transfer limit reached)" : ""));
    }
  };
  if (const auto s8 = solve_system8(ring)) {
    if (meets_bound(s8->time, s6.time))
      consider(s8->theta, "system-6",
               "System 6 optimum (Lemma 10: flow on one link, exact convex search), light flow, Lemma 9 schedule", false);
    else
      consider(s8->theta, "system-8", "System 8 optimum (best light flow), Lemma 9 schedule", false);
  }
  if (!meets_bound(p.time, p.lower_bound) || !have) {
    for (Count d : {0, -1, 1}) consider(s6.theta + d, "flow-paths", "System 6 flow (not light)", d == 0);
    const Count fmin = std::min<Count>(0, *std::min_element(F.begin(), F.end()));
    const Count fmax = std::max<Count>(0, *std::max_element(F.begin(), F.end()));
    consider(-fmin, "flow-paths", "all items rightwards (Algorithm 2's flow)", true);
    consider(-fmax, "flow-paths", "all items leftwards", true);
  }
  p.optimal = meets_bound(p.time, p.lower_bound);
  p.final_loads = final_loads(n, ring.loads, p.transfers);
  return p;
}

}  // namespace hetlb::ring
