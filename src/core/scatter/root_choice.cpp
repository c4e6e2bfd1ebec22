// RR-4770, Section 3.4: choice of the root processor, by branch and bound on proven lower bounds
// (root_choice.hpp).
#include "hetlb/scatter/root_choice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetlb/progress.hpp"

namespace hetlb::scatter {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// Bounds are computed in floating point: shrunk by far more than their rounding error, so that a
// skipped candidate's computed total is always above its bound.
constexpr double kBoundSafety = 1.0 - 1e-9;
}  // namespace

double root_transfer_cost(const Platform& platform, std::size_t candidate, Count items) {
  if (candidate == platform.root) return 0.0;
  const Processor& p = platform.processors[candidate];
  return p.transfer ? (*p.transfer)(items) : p.comm(items);
}

RootBounds::RootBounds(const Platform& platform, Count items, OrderPolicy policy) : n_(static_cast<double>(items)) {
  const std::size_t p = platform.processors.size();
  for (const Processor& proc : platform.processors) {
    c_.push_back(std::max(0.0, proc.comm.lower_slope()));
    w_.push_back(std::max(0.0, proc.compute.lower_slope()));
  }
  before_.assign(p, 0.0);
  after_.assign(p, 0.0);
  for (std::size_t i = 0; i < p; ++i) {
    const double cw = c_[i] + w_[i];
    if (cw == 0.0) zero_.push_back(i);
    if (i + 1 < p) before_[i + 1] = before_[i] + (cw == 0.0 ? 0.0 : 1.0 / cw);
  }
  for (std::size_t i = p; i-- > 1;) {
    const double cw = c_[i] + w_[i];
    after_[i - 1] = after_[i] + (cw == 0.0 ? 0.0 : 1.0 / cw);
  }
  std::vector<std::size_t> by_c(p);
  std::iota(by_c.begin(), by_c.end(), std::size_t{0});
  std::partial_sort(by_c.begin(), by_c.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(2, p)), by_c.end(),
                    [&](std::size_t a, std::size_t b) { return c_[a] < c_[b] || (c_[a] == c_[b] && a < b); });
  cmin_ = by_c[0];
  cmin2_ = p > 1 ? by_c[1] : by_c[0];
  if (policy == OrderPolicy::Best) {  // Theorem 3: the minorants' bandwidth order is the best rational one
    order_.resize(p);  // (equal slopes may come in any order: the relaxation is symmetric in them)
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return c_[a] < c_[b]; });
  } else {  // the policy's order of every processor; a candidate's is this order without it (stable sorts)
    order_ = send_order(platform, p, policy);
    order_.pop_back();
  }
  same_.resize(p);
  std::iota(same_.begin(), same_.end(), std::size_t{0});
  if (policy == OrderPolicy::Best) return;
  const auto same_cost = [](const CostFunction& a, const CostFunction& b) {
    return a.kind() == b.kind() && a.latency() == b.latency() && a.per_item() == b.per_item() && a.points() == b.points();
  };
  for (std::size_t k = 1; k < order_.size(); ++k) {
    const std::size_t a = order_[k - 1], b = order_[k];
    const Processor &pa = platform.processors[a], &pb = platform.processors[b];
    if (same_cost(pa.compute, pb.compute) && same_cost(pa.comm, pb.comm) &&
        root_transfer_cost(platform, a, items) == root_transfer_cost(platform, b, items))
      same_[b] = same_[a];
  }
}

double RootBounds::cheap(std::size_t r) const {
  if (w_[r] == 0.0) return 0.0;
  const bool free_other = std::any_of(zero_.begin(), zero_.end(), [&](std::size_t i) { return i != r; });
  double bound = 0.0;
  if (!free_other) bound = n_ / (1.0 / w_[r] + before_[r] + after_[r]);  // each processor on its own
  const double cmin = c_[r == cmin_ ? cmin2_ : cmin_];
  if (cmin > 0.0 && c_.size() > 1) bound = std::max(bound, n_ / (1.0 / w_[r] + 1.0 / cmin));  // the root's port
  else if (c_.size() == 1) bound = n_ * w_[r];
  return bound;
}

double RootBounds::rational(std::size_t r) const {
  // suffix_durations() on the order with r last (c = 0), the same operations in the same order.
  double rate = w_[r] == 0.0 ? kInf : 1.0 / w_[r];
  for (std::size_t k = order_.size(); k-- > 0;) {
    const std::size_t i = order_[k];
    if (i == r) continue;
    if (rate != kInf && c_[i] * rate < 1.0) {
      const double cw = c_[i] + w_[i];
      rate = cw == 0.0 ? kInf : 1.0 / cw + (w_[i] / cw) * rate;
    }
  }
  return rate == kInf ? 0.0 : n_ * (1.0 / rate);
}

std::size_t choose_root(const Platform& platform, Count items,
                        const std::function<double(std::size_t)>& makespan_with_root,
                        std::vector<RootCandidate>* candidates, const RootBounds* bounds,
                        const std::function<bool(std::size_t, double)>& proves_above) {
  const std::size_t p = platform.processors.size();
  std::vector<RootCandidate> all(p);
  std::vector<double> bound(p, 0.0);
  for (std::size_t r = 0; r < p; ++r) {
    all[r].name = platform.processors[r].name;
    all[r].transfer = root_transfer_cost(platform, r, items);
    bound[r] = bounds ? bounds->cheap(r) * kBoundSafety : 0.0;
  }
  std::vector<std::size_t> queue(p);
  std::iota(queue.begin(), queue.end(), std::size_t{0});
  if (bounds)
    std::stable_sort(queue.begin(), queue.end(), [&](std::size_t a, std::size_t b) {
      return all[a].transfer + bound[a] < all[b].transfer + bound[b];
    });
  std::vector<bool> solved(p, false);
  std::vector<double> solved_makespan(p, 0.0);
  std::size_t best = platform.root;
  double best_total = kInf;
  bool found = false;
  // Skipped when its total cannot beat the best: larger, or equal with a higher index (first on ties).
  const auto beaten = [&](std::size_t r, double lower) {
    const double total = all[r].transfer + lower;
    return found && (total > best_total || (total == best_total && r > best));
  };
  std::size_t examined = 0;
  for (const std::size_t r : queue) {
    ++examined;
    if (beaten(r, bound[r])) {
      all[r].makespan = bound[r], all[r].bound_only = true;
      continue;
    }
    if (bounds) {
      bound[r] = std::max(bound[r], bounds->rational(r) * kBoundSafety);
      if (beaten(r, bound[r])) {
        all[r].makespan = bound[r], all[r].bound_only = true;
        continue;
      }
    }
    const std::size_t twin = bounds ? bounds->same_problem_as(r) : r;  // solved once per problem
    if (!solved[twin] && found && proves_above) {
      // Above this makespan r's total exceeds the best (a margin over the rounding of the difference).
      const double tie = best_total - all[r].transfer + 1e-12 * best_total;
      if (tie > 0 && std::isfinite(tie) && proves_above(r, tie)) {
        all[r].makespan = tie, all[r].bound_only = true;
        continue;
      }
    }
    if (!solved[twin]) {
      solved_makespan[twin] = makespan_with_root(r), solved[twin] = true;
      report_progress([&] {
        return fmt::format("root auto: {} of {} candidates examined, best total so far {:.6g} s", examined, p,
                           best_total);
      });
    }
    all[r].makespan = solved_makespan[twin];
    const double total = all[r].total();
    if (!found || total < best_total || (total == best_total && r < best)) {
      best = r;
      best_total = total;
      found = true;
    }
  }
  if (candidates) candidates->insert(candidates->end(), all.begin(), all.end());
  return best;
}

}  // namespace hetlb::scatter
