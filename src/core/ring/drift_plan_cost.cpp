// The plan's time after one drift from the balanced targets, from the drift's entries alone
// (drift_plan_cost.hpp; Renard, Robert, Vivien, Theorem 2).
#include "hetlb/ring/drift_plan_cost.hpp"

#include <algorithm>
#include <bit>

namespace hetlb::ring {

DriftPlanCost::DriftPlanCost(const Ring& links, const std::vector<Count>& targets)
    : links_(&links), targets_(&targets), closed_form_(!links.bidirectional()), loads_(targets) {
  for (const Count x : targets) closed_form_ = closed_form_ && x >= 1;
  if (!closed_form_) return;
  const std::size_t n = targets.size();
  table_.assign(1, links.succ_cost);
  for (std::size_t len = 2; len <= n; len *= 2) {
    const std::vector<double>& prev = table_.back();
    std::vector<double> next(n - len + 1);
    for (std::size_t i = 0; i + len <= n; ++i) next[i] = std::max(prev[i], prev[i + len / 2]);
    table_.push_back(std::move(next));
  }
}

double DriftPlanCost::largest_cost(std::size_t a, std::size_t b) const {
  const auto level = static_cast<std::size_t>(std::bit_width(b - a) - 1);
  return std::max(table_[level][a], table_[level][b - (std::size_t{1} << level)]);
}

double DriftPlanCost::time(const Delta& delta) {
  // The drift's entries, by processor; when they are zero-sum, name each processor once and leave
  // every load >= 1, apply_delta adds them as they are and Theorem 2's closed form applies.
  moved_.clear();
  for (const auto& e : delta)
    if (e.second != 0) moved_.push_back(e);
  if (moved_.empty()) return 0;
  if (!std::is_sorted(moved_.begin(), moved_.end())) std::sort(moved_.begin(), moved_.end());
  bool plain = closed_form_;
  Count net = 0;
  for (std::size_t k = 0; k < moved_.size(); ++k) {
    const auto& [i, d] = moved_[k];
    net += d;
    plain = plain && (k == 0 || moved_[k - 1].first != i) && (*targets_)[i] + d >= 1;
  }
  if (!plain || net != 0) {  // the whole ring's plan
    apply_delta(loads_, delta);
    const double t = redistribution_cost(*links_, loads_, *targets_).time;
    for (const auto& [i, d] : delta) loads_[i] = (*targets_)[i];
    return t;
  }
  // Prefix sums F: 0 before the first entry, F_k on [i_k, i_{k+1}), 0 again from the last one on.
  Count f = 0, lo = 0;
  for (const auto& [i, d] : moved_) lo = std::min(lo, f += d);
  const std::size_t n = loads_.size();
  double t = 0;
  f = 0;
  for (std::size_t k = 0; k < moved_.size(); ++k) {
    f += moved_[k].second;
    const std::size_t a = moved_[k].first, b = k + 1 < moved_.size() ? moved_[k + 1].first : n;
    if (f > lo) t = std::max(t, static_cast<double>(f - lo) * (b == a + 1 ? links_->succ_cost[a] : largest_cost(a, b)));
  }
  if (lo < 0 && moved_.front().first > 0)
    t = std::max(t, static_cast<double>(-lo) * largest_cost(0, moved_.front().first));
  return t;
}

}  // namespace hetlb::ring
