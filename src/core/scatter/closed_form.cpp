// RR-4770, Section 4: Theorem 1 (all processors finish together: equations (7) and (8)) and
// Theorem 2 (a processor P_i takes part iff c_i < D(P_{i+1}, ..., P_p)), for linear costs.
#include <cmath>
#include <limits>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

// Works with A_i = 1 / D(P_i..P_p): 1/D_i = 1/(c_i+w_i) + w_i/(c_i+w_i) * 1/D_{i+1} (from equation (7)).
std::vector<double> suffix_durations(const std::vector<double>& c, const std::vector<double>& w,
                                     std::vector<bool>* kept) {
  const std::size_t p = c.size();
  std::vector<double> d(p, 0.0);
  if (kept) kept->assign(p, false);
  double rate = 0.0;  // 1 / D of the suffix after i
  for (std::size_t i = p; i-- > 0;) {
    const double cw = c[i] + w[i];
    const bool last = (i + 1 == p);
    // Theorem 2: keep P_i iff c_i < D_{i+1}, i.e. c_i * rate < 1 (the root always works).
    const bool keep = last || (rate != kInf && c[i] * rate < 1.0);
    if (keep) {
      rate = (cw == 0.0) ? kInf : 1.0 / cw + (w[i] / cw) * rate;
      if (kept) (*kept)[i] = true;
    }
    d[i] = rate == kInf ? 0.0 : 1.0 / rate;
  }
  return d;
}

RationalSolution solve_rational_linear(const std::vector<double>& c, const std::vector<double>& w, Count items) {
  const std::size_t p = c.size();
  if (p == 0 || w.size() != p) throw Error("closed-form: one communication and one computation slope per processor");
  std::vector<bool> kept;
  const std::vector<double> d = suffix_durations(c, w, &kept);
  RationalSolution sol;
  sol.method = "Theorems 1 and 2 (RR-4770), closed form";
  sol.shares.assign(p, 0.0);
  const double n = static_cast<double>(items);
  sol.makespan = n * d[0];
  if (d[0] == 0.0) {  // a free processor (zero costs) absorbs everything at time 0
    for (std::size_t i = 0; i < p; ++i)
      if (kept[i] && c[i] + w[i] == 0.0) {
        sol.shares[i] = n;
        break;
      }
    return sol;
  }
  // Equation (8), computed forward: a kept P_i receives from time `sent` and finishes at t.
  double sent = 0.0, total = 0.0;
  std::size_t last_kept = p - 1;
  for (std::size_t i = 0; i < p; ++i) {
    if (!kept[i]) continue;
    const double share = std::max(0.0, (sol.makespan - sent) / (c[i] + w[i]));
    sol.shares[i] = share;
    sent += c[i] * share;
    total += share;
    last_kept = i;
  }
  sol.shares[last_kept] += n - total;  // absorb the rounding error of the floating computation
  return sol;
}

RationalSolution solve_rational_linear_of(const Problem& problem) {
  std::vector<double> c, w;
  for (std::size_t i = 0; i < problem.size(); ++i) {
    c.push_back(problem.comm[i].per_item());
    w.push_back(problem.compute[i].per_item());
  }
  return solve_rational_linear(c, w, problem.items);
}

double rational_lower_bound(const Problem& problem) {
  std::vector<double> c, w;
  for (std::size_t i = 0; i < problem.size(); ++i) {
    c.push_back(problem.comm[i].lower_slope());
    w.push_back(problem.compute[i].lower_slope());
  }
  return static_cast<double>(problem.items) * suffix_durations(c, w).front();
}

}  // namespace hetlb::scatter
