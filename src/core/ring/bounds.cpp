// Lower bounds of Lemma 1 / Theorem 2 (unidirectional), Lemma 6 (homogeneous bidirectional) and
// Lemma 12 (heterogeneous bidirectional).
#include "hetlb/ring/bounds.hpp"

#include <algorithm>
#include <cmath>

#include "hetlb/ring/slice_unbalance.hpp"

namespace hetlb::ring {

namespace {
// min over integer i in [0, d] of max(i a, (d - i) b): the two sides cross at d b / (a + b).
double split_time(Count d, double a, double b) {
  const double x = static_cast<double>(d) * b / (a + b);
  const Count i0 = static_cast<Count>(std::floor(x));
  double best = std::min(static_cast<double>(d) * a, static_cast<double>(d) * b);  // i = d or i = 0
  for (Count i = i0 - 1; i <= i0 + 2; ++i) {
    if (i < 0 || i > d) continue;
    best = std::min(best, std::max(static_cast<double>(i) * a, static_cast<double>(d - i) * b));
  }
  return best;
}
}  // namespace

double unidirectional_bound(const Ring& r) {
  // The largest positive slice ending at P_l is F_l - min F; it leaves through link l -> l+1. A
  // negative slice's complement is a positive slice leaving through the same link.
  const std::vector<Count> f = unidirectional_flow(unbalances(r));
  double b = 0;
  for (std::size_t l = 0; l < f.size(); ++l) b = std::max(b, static_cast<double>(f[l]) * r.succ_cost[l]);
  return b;
}

double lemma6_bound(const Ring& r) {
  const std::vector<Count> d = unbalances(r);
  Count single = 0;
  for (Count x : d) single = std::max(single, x < 0 ? -x : x);
  const Count m = max_slice_unbalance(d).value;  // attained by a slice of 1..n-1 processors
  const Count half = (m + 1) / 2;
  return static_cast<double>(std::max(single, half)) * r.succ_cost[0];
}

double lemma12_bound(const Ring& r, bool slices) {
  const std::size_t n = r.size();
  const std::vector<Count> d = unbalances(r);
  const auto& cs = r.succ_cost;
  const auto& cp = r.pred_cost.empty() ? r.succ_cost : r.pred_cost;
  auto P = [n](std::size_t i) { return i == 0 ? n - 1 : i - 1; };
  auto S = [n](std::size_t i) { return i + 1 == n ? 0 : i + 1; };
  double b = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (d[k] > 0) b = std::max(b, static_cast<double>(d[k]) * std::min(cp[k], cs[k]));
    if (d[k] < 0) b = std::max(b, static_cast<double>(-d[k]) * std::min(cs[P(k)], cp[S(k)]));
  }
  if (!slices) return b;
  for (std::size_t k = 0; k < n; ++k) {
    Count s = d[k];
    for (std::size_t len = 2; len + 1 <= n; ++len) {
      const std::size_t l = (k + len - 1) % n;
      s += d[l];
      if (s > 0) b = std::max(b, split_time(s, cp[k], cs[l]));  // P_k -> P_{k-1} and P_l -> P_{l+1}
      if (s < 0) b = std::max(b, split_time(-s, cs[P(k)], cp[S(l)]));  // P_{k-1} -> P_k, P_{l+1} -> P_l
    }
  }
  return b;
}

}  // namespace hetlb::ring
