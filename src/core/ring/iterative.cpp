// The iterative ring application's pieces (iterative.hpp): balanced targets, the cost of a
// redistribution (Renard, Robert, Vivien: Lemma 5 / Theorem 2 on unidirectional rings, the planner
// otherwise) and the drift's zero-sum load changes.
#include "hetlb/ring/iterative.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetlb/error.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/slice_unbalance.hpp"

namespace hetlb::ring {

void validate(const IterativeApp& app) {
  const std::size_t n = app.ring.size();
  if (n < 2) throw Error("ring: at least 2 processors expected, got " + std::to_string(n));
  if (app.speeds.size() != n)
    throw Error("speeds: " + std::to_string(n) + " values expected (one per processor), got " +
                std::to_string(app.speeds.size()));
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(app.speeds[i]) || app.speeds[i] <= 0)
      throw Error("speeds[" + std::to_string(i) + "]: a finite number > 0 expected");
  for (std::size_t i = 0; i < n; ++i)
    if (app.ring.loads[i] < 0) throw Error("loads[" + std::to_string(i) + "]: an integer >= 0 expected");
  if (!std::isfinite(app.compute_cost) || app.compute_cost <= 0)
    throw Error("compute cost (ratio): a finite number > 0 expected");
}

std::vector<Count> balanced_targets(Count total, const std::vector<double>& speeds) {
  const double sum = std::accumulate(speeds.begin(), speeds.end(), 0.0);
  std::vector<Count> t(speeds.size());
  std::vector<std::pair<double, std::size_t>> rest(speeds.size());
  Count given = 0;
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double exact = static_cast<double>(total) * speeds[i] / sum;
    t[i] = static_cast<Count>(std::floor(exact));
    given += t[i];
    rest[i] = {exact - static_cast<double>(t[i]), i};
  }
  std::stable_sort(rest.begin(), rest.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < total; ++k, ++given) ++t[rest[k % rest.size()].second];
  for (std::size_t k = rest.size(); given > total; ++k, --given) --t[rest[k % rest.size()].second];  // rounding only
  return t;
}

RedistributionCost redistribution_cost(const Ring& links, const std::vector<Count>& loads,
                                       const std::vector<Count>& targets) {
  if (loads == targets) return {};
  const std::size_t n = loads.size();
  bool hypothesis = !links.bidirectional();
  for (std::size_t i = 0; hypothesis && i < n; ++i) hypothesis = loads[i] >= 1 && targets[i] >= 1;
  if (hypothesis) {  // Theorem 2 (Lemma 1 when homogeneous): the planner reaches max_i x_i c_{i,i+1}
    std::vector<Count> delta(n);
    for (std::size_t i = 0; i < n; ++i) delta[i] = loads[i] - targets[i];
    Count f = 0, lo = 0;
    std::vector<Count> prefix(n);
    for (std::size_t i = 0; i < n; ++i) lo = std::min(lo, prefix[i] = f += delta[i]);
    RedistributionCost c;
    for (std::size_t i = 0; i < n; ++i) {
      const Count x = prefix[i] - lo;
      c.moved += x;
      c.time = std::max(c.time, static_cast<double>(x) * links.succ_cost[i]);
    }
    return c;
  }
  Ring r = links;
  r.loads = loads;
  r.targets = targets;
  const Plan p = plan_redistribution(r, iterative_plan_options(n));
  RedistributionCost c{p.time, 0};
  for (const Transfer& t : p.transfers) c.moved += t.items;
  return c;
}

void apply_delta(std::vector<Count>& loads, const Delta& delta) {
  Count removed = 0, wanted = 0;
  for (const auto& [i, d] : delta)
    if (d < 0) removed += std::min(loads[i], -d);
    else wanted += d;
  if (removed == wanted) {
    for (const auto& [i, d] : delta) loads[i] = d < 0 ? loads[i] - std::min(loads[i], -d) : loads[i] + d;
    return;
  }
  // Some processor could not give all: cut the gains in proportion.
  std::vector<std::pair<double, std::size_t>> rest;
  Count given = 0;
  for (std::size_t k = 0; k < delta.size(); ++k) {
    const auto& [i, d] = delta[k];
    if (d < 0) {
      loads[i] -= std::min(loads[i], -d);
    } else if (d > 0) {
      const double exact = static_cast<double>(removed) * static_cast<double>(d) / static_cast<double>(wanted);
      const Count g = static_cast<Count>(std::floor(exact));
      loads[i] += g;
      given += g;
      rest.push_back({exact - static_cast<double>(g), k});
    }
  }
  std::stable_sort(rest.begin(), rest.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < removed; ++k, ++given) ++loads[delta[rest[k % rest.size()].second].first];
}

}  // namespace hetlb::ring
