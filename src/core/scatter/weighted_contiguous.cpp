// Theorem W1 (docs/weighted-items.md): the exact contiguous optimum of the weighted scatter for a
// fixed send order, by bisection on the makespan T (chains-on-chains partitioning: Nicol 1994;
// Pinar and Aykanat 2004) with the single-port sends of RR-4770, equation (1).
//
// Greedy probe, exact when every non-root link is linear with per-unit costs non-decreasing along
// the send order (Theorem 3's order) and every cost is non-decreasing: each non-root processor in
// turn takes the longest range that finishes by T; then the root's range starts at the m that
// minimises C(m) + Tcomp(root, W(m, n)), C(m) being the greedy fill capped at item m (the least
// sending date that covers items 0..m-1, by the exchange argument of the docs). O(p log n + n).
// Otherwise: dynamic programming over (processor, end of its range) keeping the least sending
// date, exact for any costs, O(p n^2) per test, used while p n^2 <= kWeightedDpBudget.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::scatter {

namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

class ContiguousProbe {
 public:
  ContiguousProbe(const Problem& pb, const WeightedItems& it) : pb_(pb), n_(it.count()), p_(pb.size()) {
    pw_.assign(static_cast<std::size_t>(n_) + 1, 0.0);
    pb_sz_.assign(static_cast<std::size_t>(n_) + 1, 0.0);
    for (Count k = 0; k < n_; ++k) {
      const auto u = static_cast<std::size_t>(k);
      pw_[u + 1] = pw_[u] + it.work[u];
      pb_sz_[u + 1] = pb_sz_[u] + (it.size.empty() ? 1.0 : it.size[u]);
    }
  }

  double work(Count s, Count e) const { return pw_[static_cast<std::size_t>(e)] - pw_[static_cast<std::size_t>(s)]; }
  double size(Count s, Count e) const {
    return pb_sz_[static_cast<std::size_t>(e)] - pb_sz_[static_cast<std::size_t>(s)];
  }
  // Sending date after processor i receives [s, e), from sending date C.
  double sent(std::size_t i, Count s, Count e, double C) const { return e > s ? C + pb_.comm[i].eval(size(s, e)) : C; }
  double finish(std::size_t i, Count s, Count e, double C) const {
    return e > s ? sent(i, s, e, C) + pb_.compute[i].eval(work(s, e)) : C;
  }
  double total_work() const { return pw_.back(); }

  // Greedy fill then the root's best start (exact under the conditions above).
  bool greedy(double T, std::vector<Count>* counts) const {
    const std::size_t root = p_ - 1;
    std::vector<Count> end(root);
    std::vector<double> after(root);
    Count s = 0;
    double C = 0;
    for (std::size_t i = 0; i < root; ++i) {
      Count lo = s, hi = n_;
      if (finish(i, s, n_, C) <= T) {
        lo = n_;
      } else {
        while (hi - lo > 1) {
          const Count mid = lo + (hi - lo) / 2;
          (finish(i, s, mid, C) <= T ? lo : hi) = mid;
        }
      }
      end[i] = lo;
      after[i] = sent(i, s, lo, C);
      s = lo;
      C = after[i];
    }
    const Count reach = s;
    // Root finish for a start m: C(m) + R(m), R non-increasing in m; skip the m with R(m) > T.
    const auto R = [&](Count m) { return m < n_ ? pb_.compute[root].eval(work(m, n_)) : 0.0; };
    Count lo = 0, hi = n_;  // smallest m with R(m) <= T
    if (R(0) <= T) hi = 0;
    while (hi - lo > 1) {
      const Count mid = lo + (hi - lo) / 2;
      (R(mid) <= T ? hi : lo) = mid;
    }
    const Count first_m = hi;
    if (first_m > reach) return false;
    if (root == 0) {  // the root alone
      if (R(0) > T) return false;
      if (counts) *counts = {n_};
      return true;
    }
    for (std::size_t k = 0; k < root; ++k) {
      const Count start = k == 0 ? 0 : end[k - 1];
      const double before = k == 0 ? 0.0 : after[k - 1];
      for (Count m = std::max(first_m, start); m <= end[k]; ++m) {
        if (sent(k, start, m, before) + R(m) > T) continue;
        if (counts) {
          counts->assign(p_, 0);
          for (std::size_t i = 0; i < k; ++i) (*counts)[i] = end[i] - (i == 0 ? 0 : end[i - 1]);
          (*counts)[k] = m - start;
          (*counts)[root] = n_ - m;
        }
        return true;
      }
    }
    return false;
  }

  // Exact for any costs: f(e) = least sending date with items [0, e) placed, everyone done by T.
  bool dynamic(double T, std::vector<Count>* counts) const {
    const std::size_t root = p_ - 1, width = static_cast<std::size_t>(n_) + 1;
    std::vector<double> f(width, kUnbounded), g(width);
    f[0] = 0.0;
    std::vector<std::vector<Count>> from(root, std::vector<Count>(width, 0));
    for (std::size_t i = 0; i < root; ++i) {
      for (Count e = 0; e <= n_; ++e) {
        const auto ue = static_cast<std::size_t>(e);
        g[ue] = f[ue];
        from[i][ue] = e;
        for (Count s = 0; s < e; ++s) {
          const double C = f[static_cast<std::size_t>(s)];
          if (C == kUnbounded) continue;
          const double next = sent(i, s, e, C);
          if (next < g[ue] && next + pb_.compute[i].eval(work(s, e)) <= T) {
            g[ue] = next;
            from[i][ue] = s;
          }
        }
      }
      f.swap(g);
    }
    for (Count s = 0; s <= n_; ++s) {
      const double C = f[static_cast<std::size_t>(s)];
      if (C == kUnbounded || finish(root, s, n_, C) > T || C > T) continue;
      if (counts) {
        counts->assign(p_, 0);
        (*counts)[root] = n_ - s;
        Count e = s;
        for (std::size_t i = root; i-- > 0;) {
          const Count b = from[i][static_cast<std::size_t>(e)];
          (*counts)[i] = e - b;
          e = b;
        }
      }
      return true;
    }
    return false;
  }

 private:
  const Problem& pb_;
  Count n_;
  std::size_t p_;
  std::vector<double> pw_, pb_sz_;
};

bool greedy_is_exact(const Problem& pb) {
  if (!pb.all_non_decreasing()) return false;
  double prev = 0;
  for (std::size_t i = 0; i + 1 < pb.size(); ++i) {
    if (!pb.comm[i].is_linear() || pb.comm[i].per_item() < prev) return false;
    prev = pb.comm[i].per_item();
  }
  return true;
}

// Every processor computes at least at its linear minorant's rate from date 0: a lower bound.
double parallel_bound(const Problem& pb, double total_work) {
  double rate = 0;
  for (const CostFunction& c : pb.compute) {
    const double a = c.lower_slope();
    if (!(a > 0)) return 0.0;
    rate += 1.0 / a;
  }
  return total_work / rate;
}

}  // namespace

WeightedPlan solve_weighted_contiguous(const Problem& pb, const WeightedItems& it) {
  it.check();
  if (pb.size() == 0) throw Error("weighted scatter: no processors");
  if (pb.items != it.count())
    throw Error(fmt::format("weighted scatter: {} items in the problem, {} weights", pb.items, it.count()));
  const ContiguousProbe probe(pb, it);
  const Count n = it.count();
  const double dp_cost = static_cast<double>(pb.size()) * static_cast<double>(n) * static_cast<double>(n);
  const bool greedy = greedy_is_exact(pb);
  const bool exact = greedy || dp_cost <= kWeightedDpBudget;
  const auto test = [&](double T, std::vector<Count>* c) {
    return greedy || !exact ? probe.greedy(T, c) : probe.dynamic(T, c);
  };
  WeightedPlan plan;
  plan.layout = Layout::Contiguous;
  // Start from everything on the root: always a plan.
  std::vector<Count> best(pb.size(), 0);
  best.back() = n;
  double best_value = evaluate_weighted(pb, it, contiguous_owner(best)).makespan;
  double lo = std::min(parallel_bound(pb, probe.total_work()), best_value), hi = best_value;
  std::vector<Count> found, last;
  const auto keep = [&](double T) {  // evaluated once at the end: O(n) per evaluation
    last = found;
    hi = T;
  };
  bool at_bound = false;
  if (lo < hi && test(lo, &found)) {
    keep(lo);
    at_bound = true;
  }
  for (int step = 0; step < 400 && !at_bound; ++step) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (test(mid, &found)) keep(mid);
    else lo = mid;
  }
  if (!last.empty()) {
    const double v = evaluate_weighted(pb, it, contiguous_owner(last)).makespan;
    if (v <= best_value) best = last, best_value = v;
  }
  plan.items = best;
  plan.makespan = best_value;
  plan.lower_bound = std::min(lo, best_value);
  plan.optimal = exact;
  plan.method = greedy ? "bisection + greedy ranges (linear links in bandwidth order)"
                : exact ? "bisection + dynamic programming over range ends"
                        : fmt::format("bisection + greedy ranges (not proven here: p n^2 = {:.3g} exceeds {:.3g}); "
                                      "gap to the bound {:.3g} %",
                                      dp_cost, kWeightedDpBudget,
                                      plan.lower_bound > 0 ? 100 * (best_value - plan.lower_bound) / plan.lower_bound : 0.0);
  plan.first.assign(pb.size(), 0);
  plan.work.assign(pb.size(), 0.0);
  Count start = 0;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    plan.first[i] = start;
    plan.work[i] = probe.work(start, start + best[i]);
    start += best[i];
  }
  return plan;
}

}  // namespace hetlb::scatter
