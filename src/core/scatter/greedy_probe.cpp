// Feasibility by greedy fill for linear links in decreasing-bandwidth order (proof in exact.hpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "feasibility_probes.hpp"

namespace hetlb::scatter::detail {

std::pair<double, Count> best_split(double start, const CostFunction& comm, Count lo, Count hi,
                                    const CostFunction& root, Count left) {
  Count cand[8];
  int k = 0;
  cand[k++] = lo;
  cand[k++] = hi;
  if (left - 1 >= lo && left - 1 <= hi) cand[k++] = left - 1;
  double best = std::numeric_limits<double>::infinity();
  Count arg = lo;
  auto consider = [&](Count x) {
    const double v = (start + comm(x)) + root(left - x);
    if (v < best) {
      best = v;
      arg = x;
    }
  };
  for (int i = 0; i < k; ++i) consider(cand[i]);
  if (root.kind() == CostFunction::Kind::Table) {
    for (const auto& [bx, bt] : root.points()) {
      const double x = static_cast<double>(left) - bx;
      if (x <= static_cast<double>(lo) || x >= static_cast<double>(hi)) continue;
      consider(static_cast<Count>(std::floor(x)));
      consider(static_cast<Count>(std::ceil(x)));
    }
  }
  return {best, arg};
}

Probe GreedyProbe::operator()(double T, std::vector<Count>* items) {
  const std::size_t p = pb_.size();
  const Count n = pb_.items;
  const CostFunction& root = pb_.compute.back();
  cum_.assign(1, 0);
  sent_.assign(1, 0.0);
  // Greedy capacities of the non-root processors, front first, until n items are placed.
  for (std::size_t i = 0; i + 1 < p && cum_.back() < n; ++i) {
    const Count cap = capacity(pb_.comm[i], pb_.compute[i], sent_.back(), T, n - cum_.back());
    if (cap < 0) break;
    cum_.push_back(cum_.back() + cap);
    sent_.push_back(sent_.back() + pb_.comm[i](cap));
  }
  // The root's finish over m = items placed on the others: best split in every segment.
  double best = std::numeric_limits<double>::infinity();
  std::size_t best_seg = 0;
  Count best_x = 0;
  auto try_segment = [&](std::size_t seg) {
    const Count a = cum_[seg + 1] - cum_[seg];
    const auto [v, x] = best_split(sent_[seg], pb_.comm[seg], 0, a, root, n - cum_[seg]);
    if (v < best) {
      best = v;
      best_seg = seg;
      best_x = x;
    }
  };
  const std::size_t segments = cum_.size() - 1;
  if (root.is_affine() && segments > 8) {
    // S(m) + root(n - m) is convex in m (slopes c_seg - w_root, c non-decreasing) but for the
    // root's latency at m = n: the minimum is where c_seg crosses w_root, or at the last segment.
    const double w = root.per_item();
    std::size_t cross = 0;
    while (cross < segments && pb_.comm[cross].per_item() < w) ++cross;
    for (std::size_t seg : {cross == 0 ? 0 : cross - 1, cross, cross + 1, segments - 1})
      if (seg < segments) try_segment(seg);
  } else {
    for (std::size_t seg = 0; seg < segments; ++seg) try_segment(seg);
  }
  if (cum_.size() == 1) {
    best = root(n);
    best_x = 0;
  }
  if (!(best <= T)) return Probe::Infeasible;
  if (items) {
    items->assign(p, 0);
    Count placed = 0;
    for (std::size_t i = 0; i < best_seg; ++i) placed += (*items)[i] = cum_[i + 1] - cum_[i];
    if (cum_.size() > 1) placed += (*items)[best_seg] = best_x;
    items->back() = n - placed;
  }
  return Probe::Feasible;
}

}  // namespace hetlb::scatter::detail
