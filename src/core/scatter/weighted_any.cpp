// Theorem W2 (docs/weighted-items.md): items dealt out in any order. Targets tau_i are the
// divisible optimum (RR-4770, Theorems 1-2) of the total work, each link charged at the items'
// average size per unit of work; items are then taken by decreasing work, each to the processor
// with the largest remaining deficit tau_i - W_i. A processor is only chosen with a positive deficit,
// so W_i < tau_i + w_max: with linear costs and sizes proportional to work the makespan is at most
// T* + w_max max_i (rho sum_{j<=i} c_j + a_i), T* the divisible optimum (a lower bound). The fill is
// kept only when it beats the contiguous optimum, which is itself an assignment.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::scatter {

namespace {

struct Totals {
  double work = 0, size = 0, max_work = 0;
};

Totals totals(const WeightedItems& it) {
  Totals t;
  for (std::size_t k = 0; k < it.work.size(); ++k) {
    t.work += it.work[k];
    t.size += it.size.empty() ? 1.0 : it.size[k];
    t.max_work = std::max(t.max_work, it.work[k]);
  }
  return t;
}

// Divisible optimum on per-unit-of-work slopes, links at density rho; shares of the total work.
RationalSolution divisible(const Problem& pb, double rho, double total_work, bool minorants) {
  std::vector<double> c, a;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    const double ci = minorants ? pb.comm[i].lower_slope() : pb.comm[i].asymptotic_slope();
    const double ai = minorants ? pb.compute[i].lower_slope() : pb.compute[i].asymptotic_slope();
    c.push_back(std::max(0.0, ci) * rho);
    a.push_back(std::max(0.0, ai));
  }
  c.back() = 0.0;
  RationalSolution r = solve_rational_linear(c, a, 1);  // linear in the load: scale one unit
  r.makespan *= total_work;
  for (double& s : r.shares) s *= total_work;
  return r;
}

// Sizes proportional to work (or links free): the divisible problem on work is a relaxation.
bool sizes_follow_work(const Problem& pb, const WeightedItems& it, double rho) {
  bool links_free = true;
  for (std::size_t i = 0; i + 1 < pb.size(); ++i) links_free = links_free && pb.comm[i].is_zero();
  if (links_free) return true;
  for (std::size_t k = 0; k < it.work.size(); ++k) {
    const double b = it.size.empty() ? 1.0 : it.size[k];
    if (std::abs(b - rho * it.work[k]) > 1e-12 * std::max(1.0, b)) return false;
  }
  return true;
}

bool all_linear(const Problem& pb) { return pb.all_linear(); }

}  // namespace

WeightedPlan solve_weighted_any(const Problem& pb, const WeightedItems& it) {
  WeightedPlan contiguous = solve_weighted_contiguous(pb, it);
  const Totals t = totals(it);
  const std::size_t p = pb.size();
  if (!(t.work > 0)) {  // nothing to balance
    contiguous.layout = Layout::Any;
    contiguous.owner = contiguous_owner(contiguous.items);
    contiguous.contiguous_makespan = contiguous.makespan;
    return contiguous;
  }
  const double rho = t.size / t.work;
  const RationalSolution target = divisible(pb, rho, t.work, false);
  // Deal by decreasing work (ties: item order), into the largest deficit (ties: send order).
  std::vector<std::size_t> order(it.work.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return it.work[x] > it.work[y]; });
  using Entry = std::pair<double, std::size_t>;  // (deficit, processor)
  const auto lower = [](const Entry& x, const Entry& y) {
    return x.first < y.first || (x.first == y.first && x.second > y.second);
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(lower)> deficits(lower);
  for (std::size_t i = 0; i < p; ++i) deficits.push({target.shares[i], i});
  std::vector<std::size_t> owner(it.work.size());
  for (std::size_t k : order) {
    Entry e = deficits.top();
    deficits.pop();
    owner[k] = e.second;
    e.first -= it.work[k];
    deficits.push(e);
  }
  const double fill = evaluate_weighted(pb, it, owner).makespan;
  WeightedPlan plan;
  plan.layout = Layout::Any;
  plan.contiguous_makespan = contiguous.makespan;
  const bool proportional = sizes_follow_work(pb, it, rho);
  // Lower bound: the divisible optimum on linear minorants when it is a relaxation; else the
  // contiguous planner's bound on computing alone is not one for any layout, so compute only.
  const double relaxed = divisible(pb, proportional ? rho : 0.0, t.work, true).makespan;
  plan.lower_bound = std::min(relaxed, std::min(fill, contiguous.makespan));
  if (proportional && all_linear(pb)) {
    double worst = 0, links = 0;
    for (std::size_t i = 0; i < p; ++i) {
      if (i + 1 < p) links += pb.comm[i].per_item() * rho;
      worst = std::max(worst, links + pb.compute[i].per_item());
    }
    plan.guarantee = t.max_work * worst + (target.makespan - plan.lower_bound);
  }
  if (fill < contiguous.makespan) {
    plan.owner = std::move(owner);
    plan.makespan = fill;
    plan.method = "largest-deficit fill towards the divisible optimum (decreasing work)";
  } else {
    plan.owner = contiguous_owner(contiguous.items);
    plan.makespan = contiguous.makespan;
    plan.method = fmt::format("contiguous optimum (the largest-deficit fill took {:.6g})", fill);
  }
  plan.items.assign(p, 0);
  plan.work.assign(p, 0.0);
  for (std::size_t k = 0; k < plan.owner.size(); ++k) {
    ++plan.items[plan.owner[k]];
    plan.work[plan.owner[k]] += it.work[k];
  }
  plan.optimal = plan.makespan <= plan.lower_bound;
  return plan;
}

}  // namespace hetlb::scatter
