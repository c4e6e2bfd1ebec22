// System 6 (light redistribution) and System 8 of the paper (Section 6), solved exactly through
// Lemma 10: the net flow over one link (theta, link n-1 -> 0) fixes every other, R_i = theta + F_i,
// and the one-port times are convex piecewise-linear functions of theta with integer breakpoints.
// An integer minimiser of a convex function of one variable is the floor or the ceiling of a real
// minimiser, which is Theorem 4 for this formulation.
#include <algorithm>
#include <cmath>

#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/slice_unbalance.hpp"

namespace hetlb::ring {

namespace {

template <typename T>
double tau(const Ring& r, const std::vector<Count>& F, T theta) {
  const std::size_t n = r.size();
  const auto& cs = r.succ_cost;
  const auto& cp = r.pred_cost.empty() ? r.succ_cost : r.pred_cost;
  auto pos = [](double v) { return v > 0 ? v : 0.0; };
  double best = 0;
  double prev = static_cast<double>(theta + F[n - 1]);  // R_{n-1} = theta (F_{n-1} = 0)
  for (std::size_t i = 0; i < n; ++i) {
    const double cur = static_cast<double>(theta + F[i]);
    const std::size_t pi = i == 0 ? n - 1 : i - 1, si = i + 1 == n ? 0 : i + 1;
    const double send = pos(cur) * cs[i] + pos(-prev) * cp[i];
    const double recv = pos(prev) * cs[pi] + pos(-cur) * cp[si];
    best = std::max(best, std::max(send, recv));
    prev = cur;
  }
  return best;
}

// Smallest minimiser of the convex tau over integers in [lo, hi] (bisection on the sign of the slope).
FlowOptimum minimise(const Ring& r, const std::vector<Count>& F, Count lo, Count hi) {
  while (lo < hi) {
    const Count mid = lo + (hi - lo) / 2;
    if (tau(r, F, mid + 1) >= tau(r, F, mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return FlowOptimum{lo, tau(r, F, lo)};
}

void range(const std::vector<Count>& F, Count& fmin, Count& fmax) {
  fmin = std::min<Count>(0, *std::min_element(F.begin(), F.end()));
  fmax = std::max<Count>(0, *std::max_element(F.begin(), F.end()));
}

}  // namespace

double system6_time(const Ring& ring, const std::vector<Count>& prefix, Count theta) { return tau(ring, prefix, theta); }

FlowOptimum solve_system6(const Ring& ring) {
  const std::vector<Count> F = prefix_unbalance(unbalances(ring));
  Count fmin, fmax;
  range(F, fmin, fmax);
  // Beyond -min F every link carries items rightwards and tau can only grow with theta; below -max F
  // leftwards, symmetrically.
  return minimise(ring, F, -fmax, -fmin);
}

double system6_rational_theta(const Ring& ring, Count integer_theta, double* rational_time) {
  const std::vector<Count> F = prefix_unbalance(unbalances(ring));
  // Convex in real theta: golden-section search on [theta - 1, theta + 1]; 60 steps leave an interval
  // of 2 * 0.618^60 ~ 6e-13, so the reported optimum is within that times the largest slope.
  const double phi = 0.6180339887498949;
  double a = static_cast<double>(integer_theta) - 1, b = static_cast<double>(integer_theta) + 1;
  double m1 = b - phi * (b - a), m2 = a + phi * (b - a);
  double f1 = tau(ring, F, m1), f2 = tau(ring, F, m2);
  for (int it = 0; it < 60; ++it) {
    if (f1 <= f2) {
      b = m2;
      m2 = m1;
      f2 = f1;
      m1 = b - phi * (b - a);
      f1 = tau(ring, F, m1);
    } else {
      a = m1;
      m1 = m2;
      f1 = f2;
      m2 = a + phi * (b - a);
      f2 = tau(ring, F, m2);
    }
  }
  const double t = (a + b) / 2;
  if (rational_time) *rational_time = tau(ring, F, t);
  return t;
}

std::optional<FlowOptimum> solve_system8(const Ring& ring) {
  const std::size_t n = ring.size();
  const std::vector<Count> F = prefix_unbalance(unbalances(ring));
  // P_i sends pos(theta + F_i) + pos(-theta - F_{i-1}) items: at most L_i iff
  // theta in [-F_{i-1} - L_i, L_i - F_i] (between the kinks it sends |delta_i| or nothing).
  Count lo = -kMaxCount, hi = kMaxCount;
  for (std::size_t i = 0; i < n; ++i) {
    const Count fp = F[i == 0 ? n - 1 : i - 1];
    lo = std::max(lo, -fp - ring.loads[i]);
    hi = std::min(hi, ring.loads[i] - F[i]);
  }
  if (lo > hi) return std::nullopt;
  Count fmin, fmax;
  range(F, fmin, fmax);
  // The optimum over [lo, hi] lies in [-max F, -min F] when they meet, else at the nearer end.
  const Count a = std::clamp(-fmax, lo, hi), b = std::clamp(-fmin, lo, hi);
  return minimise(ring, F, a, b);
}

}  // namespace hetlb::ring
