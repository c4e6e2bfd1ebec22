// Exact integer optimum by bisection on the makespan with a greedy fill (see exact.hpp for the
// proof sketch); falls back to RR-4770's Algorithm 2 / Algorithm 1 where the proof does not hold.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/uniform.hpp"

namespace hetlb::scatter {

bool exact_fast_path_applies(const Problem& pb, std::string* reason) {
  auto no = [&](std::string why) {
    if (reason) *reason = std::move(why);
    return false;
  };
  if (!pb.all_non_decreasing()) return no("a cost function decreases");
  double prev = 0.0;
  for (std::size_t i = 0; i + 1 < pb.size(); ++i) {
    const CostFunction& c = pb.comm[i];
    if (!c.is_linear()) return no(fmt::format("{} comm is not linear ({})", pb.names[i], c.describe()));
    if (c.per_item() < prev) return no("send order is not by decreasing bandwidth");
    prev = c.per_item();
  }
  return true;
}

namespace {

class GreedyProbe {
 public:
  explicit GreedyProbe(const Problem& pb) : pb_(pb), p_(pb.size()) {
    const CostFunction& root = pb.compute.back();
    if (root.kind() == CostFunction::Kind::Table)
      for (auto it = root.points().rbegin(); it != root.points().rend(); ++it) root_breaks_.push_back(it->first);
  }

  // Feasibility of makespan <= T; on success `items` holds a distribution achieving it.
  bool feasible(double T, std::vector<Count>* items) {
    const Count n = pb_.items;
    cum_.assign(1, 0);
    sent_.assign(1, 0.0);
    // Greedy caps of the non-root processors, front first, until n items are placed.
    for (std::size_t i = 0; i + 1 < p_ && cum_.back() < n; ++i) {
      const Count cap = max_items_within(pb_.comm[i], pb_.compute[i], sent_.back(), T, n - cum_.back());
      if (cap <= 0) {  // zero items: nothing sent, the processor finishes at sent <= root's start
        if (cap < 0) break;
        cum_.push_back(cum_.back());
        sent_.push_back(sent_.back());
        continue;
      }
      cum_.push_back(cum_.back() + cap);
      sent_.push_back(sent_.back() + pb_.comm[i](cap));
    }
    // Candidates m (items to the non-root processors): segment ends, the root's breakpoints.
    const Count mmax = cum_.back();
    cand_.clear();
    for (Count m : cum_) cand_.push_back(m);
    for (double x : root_breaks_) {
      const double m = static_cast<double>(n) - x;
      if (m <= 0 || m >= static_cast<double>(mmax)) continue;
      cand_.push_back(static_cast<Count>(std::floor(m)));
      cand_.push_back(static_cast<Count>(std::ceil(m)));
    }
    if (n - 1 >= 0 && n - 1 <= mmax) cand_.push_back(n - 1);  // the root's latency jump at 0 items
    std::sort(cand_.begin(), cand_.end());
    cand_.erase(std::unique(cand_.begin(), cand_.end()), cand_.end());
    std::size_t seg = 0;  // processor index whose segment contains m: cum_[seg] <= m <= cum_[seg+1]
    double best = std::numeric_limits<double>::infinity();
    Count best_m = -1;
    std::size_t best_seg = 0;
    for (Count m : cand_) {
      while (seg + 1 < cum_.size() && cum_[seg + 1] < m) ++seg;
      const double s = (m == cum_[seg]) ? sent_[seg] : sent_[seg] + pb_.comm[seg](m - cum_[seg]);
      const double root_finish = s + pb_.compute.back()(n - m);
      if (root_finish < best) {
        best = root_finish;
        best_m = m;
        best_seg = seg;
      }
    }
    if (!(best <= T)) return false;
    if (items) {
      items->assign(p_, 0);
      for (std::size_t i = 0; i < best_seg; ++i) (*items)[i] = cum_[i + 1] - cum_[i];
      if (best_m > cum_[best_seg]) (*items)[best_seg] = best_m - cum_[best_seg];
      items->back() = n - best_m;
    }
    return true;
  }

 private:
  const Problem& pb_;
  std::size_t p_;
  std::vector<double> root_breaks_;  // root table x, decreasing
  std::vector<Count> cum_;           // items placed before processor i
  std::vector<double> sent_;         // root's sending date after processors 0..i-1
  std::vector<Count> cand_;
};

Plan bisection(const Problem& pb) {
  GreedyProbe probe(pb);
  Plan plan;
  plan.algorithm = "exact";
  plan.method = "bisection on the makespan + greedy fill (exact for linear links in bandwidth order)";
  // hi: a feasible makespan; lo: an infeasible one.
  const Plan uniform = solve_uniform(pb);
  double hi = uniform.makespan;
  std::vector<Count> best = uniform.items;
  double lo = rational_lower_bound(pb) * (1.0 - 1e-9);
  if (lo >= hi || probe.feasible(lo, nullptr)) lo = -1.0;
  std::vector<Count> items;
  while (true) {  // down to adjacent doubles: lo infeasible, hi feasible
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (probe.feasible(mid, &items)) {
      hi = mid;
      best = items;
    } else {
      lo = mid;
    }
  }
  if (!probe.feasible(hi, &items)) throw Error("exact: internal error, the upper bound is not feasible");
  // Keep whichever achieves the smaller evaluated makespan (they agree to the last bit normally).
  if (makespan(pb, items) <= makespan(pb, best)) best = items;
  plan.items = best;
  plan.makespan = makespan(pb, plan.items);
  plan.lower_bound = plan.makespan;
  plan.optimal = true;
  return plan;
}

}  // namespace

Plan solve_exact(const Problem& pb) {
  std::string why;
  if (exact_fast_path_applies(pb, &why)) return bisection(pb);
  Plan plan = pb.all_non_decreasing() ? solve_dp(pb) : solve_dp_basic(pb);
  plan.method = fmt::format("{} (fallback: {})", plan.method, why);
  plan.algorithm = "exact";
  return plan;
}

}  // namespace hetlb::scatter
