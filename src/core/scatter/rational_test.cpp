// RR-4770 Sections 3.3 and 4: LP (3), equation (4), Theorems 1, 2 and 3, against GLPK's exact
// rational simplex, brute force and formulas recomputed here.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>

#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/guaranteed_heuristic.hpp"
#include "hetlb/scatter/rational.hpp"
#include "test_instances.hpp"

namespace hetlb::scatter {
using namespace testing;

namespace {
std::vector<double> slopes(const std::vector<CostFunction>& f) {
  std::vector<double> v;
  for (const auto& c : f) v.push_back(c.per_item());
  return v;
}

// Equation (7) written out directly over processors first..p-1 (all of them participating).
double equation7(const std::vector<double>& c, const std::vector<double>& w, std::size_t first, double n) {
  double sum = 0, prod = 1;
  for (std::size_t i = first; i < c.size(); ++i) {
    sum += prod / (c[i] + w[i]);
    prod *= w[i] / (c[i] + w[i]);
  }
  return n / sum;
}

bool close(double a, double b, double rel = 1e-7) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }
}  // namespace

// closed-form (Theorems 1-2) equals the exact rational optimum of LP (3) on linear instances.
RC_GTEST_PROP(Rational, ClosedFormEqualsExactLp, ()) {
  const Problem pb = *gen_problem(CostKind::Linear, 6, 1000, false);
  const RationalSolution cf = solve_rational_linear(slopes(pb.comm), slopes(pb.compute), pb.items);
  const RationalSolution lp = solve_lp_glpk(pb, true);
  RC_ASSERT(close(cf.makespan, lp.makespan));
  RC_ASSERT(close(std::accumulate(cf.shares.begin(), cf.shares.end(), 0.0), static_cast<double>(pb.items)));
}

// The closed method for LP (3) with latencies equals GLPK's exact optimum.
RC_GTEST_PROP(Rational, AffineClosedMethodEqualsExactLp, ()) {
  const Problem pb = *gen_problem(CostKind::Affine, 6, 1000, false);
  RC_PRE(pb.size() > 0);
  const RationalSolution mine = solve_lp_affine(pb);
  const RationalSolution ref = solve_lp_glpk(pb, true);
  RC_ASSERT(close(mine.makespan, ref.makespan));
  // The shares achieve the value under the LP's semantics (latencies always charged).
  double sent = 0, worst = 0;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    RC_ASSERT(mine.shares[i] >= -1e-9);
    sent += pb.comm[i].latency() + pb.comm[i].per_item() * mine.shares[i];
    worst = std::max(worst, sent + pb.compute[i].latency() + pb.compute[i].per_item() * mine.shares[i]);
  }
  RC_ASSERT(close(worst, ref.makespan, 1e-6));
}

// Equation (4) and the integer/rational ordering on linear instances:
// rational <= integer optimum <= lp <= rational + sum Tcomm(j,1) + max Tcomp(i,1).
RC_GTEST_PROP(Rational, Equation4OnLinearInstances, ()) {
  const Problem pb = *gen_problem(CostKind::Linear, 4, 14, false);
  const double integer_opt = brute_force(pb);
  const Plan lp = solve_lp(pb);
  const double eps = 1e-9 * std::max(1.0, integer_opt);
  RC_ASSERT(*lp.rational_optimum <= integer_opt + eps);
  RC_ASSERT(integer_opt <= lp.makespan + eps);
  RC_ASSERT(lp.makespan <= *lp.rational_optimum + rounding_guarantee(pb) + eps);
  RC_ASSERT(lp.lower_bound <= integer_opt + eps);
  const Plan cf = solve_closed_form(pb);
  RC_ASSERT(integer_opt <= cf.makespan + eps);
  RC_ASSERT(cf.makespan <= *cf.rational_optimum + rounding_guarantee(pb) + eps);
}

// With latencies the LP charges every processor, so only these hold: the integer optimum is at
// most the rounded LP, which is within equation (4) of the LP; the LP is a lower bound on integer
// solutions that give every processor an item; the latency-free relaxation bounds all of them.
RC_GTEST_PROP(Rational, Equation4WithLatencies, ()) {
  const Problem pb = *gen_problem(CostKind::Affine, 4, 12, false);
  const double integer_opt = brute_force(pb);
  const Plan lp = solve_lp(pb);
  const double eps = 1e-9 * std::max(1.0, lp.makespan);
  RC_ASSERT(integer_opt <= lp.makespan + eps);
  RC_ASSERT(lp.makespan <= *lp.rational_optimum + rounding_guarantee(pb) + eps);
  RC_ASSERT(rational_lower_bound(pb) <= integer_opt + eps);
  RC_ASSERT(lp.lower_bound <= integer_opt + eps);
  if (pb.items >= static_cast<Count>(pb.size())) {
    const double all_used = brute_force(pb, nullptr, [](const std::vector<Count>& v) {
      return std::all_of(v.begin(), v.end(), [](Count x) { return x >= 1; });
    });
    RC_ASSERT(*lp.rational_optimum <= all_used + eps);
  }
}

// Theorem 1: under Theorem 2's condition every processor works and all finish at t of eq. (7).
// Theorem 2: the condition holds iff the LP optimum equals eq. (7) over all processors; the
// dropped processors are exactly those with c_i >= D(P_{i+1}..P_p) over the kept suffix.
RC_GTEST_PROP(Rational, Theorems1And2, ()) {
  const Problem pb = *gen_problem(CostKind::Linear, 6, 1000, false);
  const auto c = slopes(pb.comm), w = slopes(pb.compute);
  RC_PRE(std::all_of(w.begin(), w.end(), [](double v) { return v > 0; }));
  const double n = static_cast<double>(pb.items);
  // The condition, from eq. (7) over full suffixes.
  bool condition = true;
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    const double d = equation7(c, w, i + 1, 1.0);
    RC_PRE(!close(c[i], d, 1e-9));  // stay away from the boundary of the condition
    condition = condition && c[i] <= d;
  }
  const double lp = solve_lp_glpk(pb, true).makespan;
  const double all_together = equation7(c, w, 0, n);
  RC_ASSERT(condition == close(lp, all_together));
  if (condition) RC_ASSERT(lp <= all_together * (1 + 1e-9));
  else RC_ASSERT(lp < all_together);
  // Dropped processors, recomputed from the back.
  const RationalSolution sol = solve_rational_linear(c, w, pb.items);
  std::vector<double> kc, kw;  // kept suffix, in order
  for (std::size_t i = c.size(); i-- > 0;) {
    bool keep = (i + 1 == c.size());
    if (!keep) {
      std::vector<double> sc(kc.rbegin(), kc.rend()), sw(kw.rbegin(), kw.rend());
      const double d = equation7(sc, sw, 0, 1.0);
      RC_PRE(!close(c[i], d, 1e-9));
      keep = c[i] < d;
    }
    if (keep) {
      kc.push_back(c[i]);
      kw.push_back(w[i]);
      RC_ASSERT(sol.shares[i] > 0);
    } else {
      RC_ASSERT(sol.shares[i] == 0);
    }
  }
  // Kept processors all finish at the makespan.
  double sent = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (sol.shares[i] == 0) continue;
    sent += c[i] * sol.shares[i];
    RC_ASSERT(close(sent + w[i] * sol.shares[i], sol.makespan, 1e-6));
  }
}

// Theorem 3: with linear costs and Theorem 2's condition in the decreasing-bandwidth order, that
// order's rational optimum is no worse than any other order's (root last).
RC_GTEST_PROP(Rational, Theorem3DecreasingBandwidthIsBest, ()) {
  Problem pb = *gen_problem(CostKind::Linear, 6, 1000, true);
  auto c = slopes(pb.comm), w = slopes(pb.compute);
  RC_PRE(std::all_of(w.begin(), w.end(), [](double v) { return v > 0; }));
  for (std::size_t i = 0; i + 1 < c.size(); ++i) RC_PRE(c[i] <= equation7(c, w, i + 1, 1.0));
  const double best = solve_rational_linear(c, w, pb.items).makespan;
  std::vector<std::size_t> perm(c.size() - 1);
  std::iota(perm.begin(), perm.end(), 0);
  do {
    std::vector<double> pc, pw;
    for (std::size_t k : perm) {
      pc.push_back(c[k]);
      pw.push_back(w[k]);
    }
    pc.push_back(0.0);
    pw.push_back(w.back());
    RC_ASSERT(best <= solve_rational_linear(pc, pw, pb.items).makespan * (1 + 1e-12));
  } while (std::next_permutation(perm.begin(), perm.end()));
}

// The rational lower bound holds for every kind of cost (linear minorants).
RC_GTEST_PROP(Rational, LowerBoundBelowIntegerOptimum, ()) {
  const Problem pb = *gen_problem(CostKind::Table, 4, 12, false);
  RC_ASSERT(rational_lower_bound(pb) <= brute_force(pb) * (1 + 1e-12) + 1e-12);
}

}  // namespace hetlb::scatter
