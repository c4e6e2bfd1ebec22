// Linear program (3) of RR-4770 (Section 3.3) for affine costs, by a closed method for its chain
// structure. The LP's dual only depends on the slopes: with R_j the sum of the multipliers of
// processors j..p and mu the multiplier of sum n_i = n, stationarity reads c_j R_j + w_j l_j = mu, so
// the multipliers are non-negative exactly for Theorem 2's selection on the slopes. With that
// selection fixed, the selected processors all finish at T and the others get nothing: every n_i
// is affine in T and sum n_i = n gives T. When the result is primal feasible it is optimal (LP
// duality); otherwise (large latencies) GLPK solves the LP.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

namespace {

struct Affine {  // a * T + b
  double a = 0, b = 0;
};

bool closed_method(const Problem& pb, RationalSolution& sol) {
  const std::size_t p = pb.size();
  std::vector<double> c(p), w(p);
  for (std::size_t i = 0; i < p; ++i) {
    c[i] = pb.comm[i].per_item();
    w[i] = pb.compute[i].per_item();
  }
  std::vector<bool> kept;
  suffix_durations(c, w, &kept);
  std::vector<Affine> share(p);
  Affine sent, total;
  for (std::size_t i = 0; i < p; ++i) {
    const double l = pb.comm[i].latency(), lc = pb.compute[i].latency();
    if (kept[i]) {
      const double cw = c[i] + w[i];
      if (cw == 0.0) return false;
      share[i] = {(1.0 - sent.a) / cw, (-sent.b - l - lc) / cw};
      sent = {sent.a + c[i] * share[i].a, sent.b + l + c[i] * share[i].b};
      total = {total.a + share[i].a, total.b + share[i].b};
    } else {
      sent.b += l;
    }
  }
  if (total.a <= 0.0) return false;
  const double n = static_cast<double>(pb.items);
  const double t = (n - total.b) / total.a;
  // Primal feasibility: shares non-negative, unselected processors done by T.
  const double tol = 1e-9 * std::max(1.0, std::abs(t));
  sol.shares.assign(p, 0.0);
  double at = 0.0;
  for (std::size_t i = 0; i < p; ++i) {
    at += pb.comm[i].latency();
    if (kept[i]) {
      const double v = share[i].a * t + share[i].b;
      if (v < -1e-9 * std::max(1.0, n)) return false;
      sol.shares[i] = std::max(0.0, v);
      at += c[i] * sol.shares[i];
    } else if (at + pb.compute[i].latency() > t + tol) {
      return false;
    }
  }
  // Absorb the floating-point drift of sum n_i = n into the largest share.
  double sum = 0;
  for (double v : sol.shares) sum += v;
  *std::max_element(sol.shares.begin(), sol.shares.end()) += n - sum;
  sol.makespan = t;
  sol.method = "LP (3) by the closed method (Theorem 2 selection, all selected finish together)";
  return true;
}

}  // namespace

RationalSolution solve_lp_affine(const Problem& problem) {
  if (!problem.all_affine()) throw Error("lp: linear program (3) needs affine costs (a processor has a table)");
  RationalSolution sol;
  if (closed_method(problem, sol)) return sol;
  constexpr std::size_t kExactLimit = 2000;  // glp_exact's rational arithmetic is slow beyond this
  if (problem.size() > kLpGlpkMaxProcessors)
    throw Error(fmt::format("lp: {} processors: the closed method does not hold on these latencies and GLPK's simplex "
                            "takes minutes beyond {} processors (12.5 s at 10,000); expected at most {} "
                            "(--algorithm exact plans it)",
                            problem.size(), kLpGlpkMaxProcessors, kLpGlpkMaxProcessors));
  return solve_lp_glpk(problem, problem.size() <= kExactLimit);
}

}  // namespace hetlb::scatter
