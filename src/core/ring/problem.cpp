// Ring problem checks and helpers (paper, Section 2).
#include "hetlb/ring/problem.hpp"

#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring {

void validate(const Ring& r) {
  const std::size_t n = r.loads.size();
  if (n < 2) throw Error(fmt::format("ring: {} processor(s); expected at least 2", n));
  if (r.targets.size() != n)
    throw Error(fmt::format("ring: {} targets for {} loads; expected the same length", r.targets.size(), n));
  if (r.succ_cost.size() != n)
    throw Error(fmt::format("ring: {} succ_cost values for {} processors; expected {}", r.succ_cost.size(), n, n));
  if (!r.pred_cost.empty() && r.pred_cost.size() != n)
    throw Error(fmt::format("ring: {} pred_cost values for {} processors; expected {}", r.pred_cost.size(), n, n));
  Count sl = 0, st = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (r.loads[i] < 0 || r.loads[i] > kMaxCount)
      throw Error(fmt::format("ring: loads[{}] = {}; expected 0 <= load <= {}", i, r.loads[i], kMaxCount));
    if (r.targets[i] < 0 || r.targets[i] > kMaxCount)
      throw Error(fmt::format("ring: targets[{}] = {}; expected 0 <= target <= {}", i, r.targets[i], kMaxCount));
    sl += r.loads[i];
    st += r.targets[i];
    if (sl > kMaxCount || st > kMaxCount) throw Error(fmt::format("ring: more than {} items in all", kMaxCount));
  }
  if (sl != st) throw Error(fmt::format("ring: targets sum to {} but loads sum to {}; expected equal sums", st, sl));
  auto check_costs = [&](const std::vector<double>& c, const char* name) {
    for (std::size_t i = 0; i < c.size(); ++i)
      if (!std::isfinite(c[i]) || c[i] <= 0)
        throw Error(fmt::format("ring: {}[{}] = {}; expected a finite cost > 0", name, i, c[i]));
  };
  check_costs(r.succ_cost, "succ_cost");
  check_costs(r.pred_cost, "pred_cost");
  // No schedule keeps a link busy longer than every item crossing it once: the items times the sum of
  // the costs (both directions) bounds every date, which must stay a finite double (twice, for sums).
  double costs = 0;
  for (double c : r.succ_cost) costs += c;
  for (double c : r.pred_cost) costs += c;
  if (!std::isfinite(2 * static_cast<double>(sl) * costs))
    throw Error(fmt::format("ring: {} items over links whose costs add up to {:.6g}: dates beyond the largest "
                            "double; expected smaller costs",
                            sl, costs));
}

bool is_homogeneous(const Ring& r) {
  const double c = r.succ_cost.at(0);
  for (double x : r.succ_cost)
    if (x != c) return false;
  for (double x : r.pred_cost)
    if (x != c) return false;
  return true;
}

bool paper_hypothesis(const Ring& r) {
  for (std::size_t i = 0; i < r.size(); ++i)
    if (r.loads[i] < 1 || r.targets[i] < 1) return false;
  return true;
}

std::vector<Count> unbalances(const Ring& r) {
  std::vector<Count> d(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) d[i] = r.unbalance(i);
  return d;
}

Ring with_symmetric_links(Ring r) {
  if (r.bidirectional()) return r;
  const std::size_t n = r.size();
  r.pred_cost.resize(n);
  for (std::size_t i = 0; i < n; ++i) r.pred_cost[i] = r.succ_cost[i == 0 ? n - 1 : i - 1];
  return r;
}

std::vector<Count> final_loads(std::size_t n, const std::vector<Count>& loads, const std::vector<Transfer>& ts) {
  std::vector<Count> f(loads.begin(), loads.end());
  f.resize(n, 0);
  for (const Transfer& t : ts) {
    if (t.from < n) f[t.from] -= t.items;
    if (t.to < n) f[t.to] += t.items;
  }
  return f;
}

double last_arrival(const std::vector<Transfer>& ts) {
  double t = 0;
  for (const Transfer& x : ts) t = std::max(t, x.end);
  return t;
}

}  // namespace hetlb::ring
