// Target shares and surplus-to-deficit transfers of a global balancing step (global_step.hpp): RR-4770's
// divisible optimum (Theorems 1 and 2) with free links, rounded by the paper's scheme (Section 3.3).
#include "hetlb/balance/global_step.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::balance {

GlobalStep plan_global_step(const std::vector<double>& work, const std::vector<double>& speed, double quantum) {
  const std::size_t p = work.size();
  if (p == 0) throw Error("global step: no rank; expected one work and one speed per rank");
  if (speed.size() != p)
    throw Error(fmt::format("global step: {} speeds for {} ranks; expected one per rank", speed.size(), p));
  if (!(quantum > 0) || !std::isfinite(quantum))
    throw Error(fmt::format("global step: quantum = {}; expected a finite amount of work > 0", quantum));
  double total = 0;
  for (std::size_t r = 0; r < p; ++r) {
    if (!(work[r] >= 0) || !std::isfinite(work[r]))
      throw Error(fmt::format("global step: work[{}] = {}; expected a finite amount >= 0", r, work[r]));
    if (!(speed[r] > 0) || !std::isfinite(speed[r]))
      throw Error(fmt::format("global step: speed[{}] = {}; expected a finite speed > 0", r, speed[r]));
    total += work[r];
  }
  GlobalStep step;
  step.target.assign(p, 0.0);
  const auto units = static_cast<Count>(std::llround(total / quantum));
  if (units > 0) {
    // Linear costs: receiving is free (c_i = 0), computing one quantum takes quantum / s_i.
    std::vector<double> c(p, 0.0), w(p);
    for (std::size_t r = 0; r < p; ++r) w[r] = quantum / speed[r];
    const std::vector<Count> counts = scatter::round_shares(scatter::solve_rational_linear(c, w, units).shares, units);
    for (std::size_t r = 0; r < p; ++r) step.target[r] = static_cast<double>(counts[r]) * quantum;
  }
  // The residue (total not a whole number of quanta, and rounding): to the largest share, so the
  // targets sum to the work held.
  double assigned = 0;
  for (double t : step.target) assigned += t;
  const auto largest = static_cast<std::size_t>(std::max_element(step.target.begin(), step.target.end()) -
                                                step.target.begin());
  step.target[largest] = std::max(0.0, step.target[largest] + (total - assigned));

  for (std::size_t r = 0; r < p; ++r) {
    step.time_before = std::max(step.time_before, work[r] / speed[r]);
    step.time_after = std::max(step.time_after, step.target[r] / speed[r]);
  }

  // Surplus to deficit, both in rank order. Amounts below a millionth of a quantum are rounding noise.
  const double eps = 1e-6 * quantum;
  std::vector<double> traffic(p, 0.0);
  std::size_t to = 0;
  double deficit = 0;
  const auto next_deficit = [&] {
    while (to < p && !(step.target[to] - work[to] > eps)) ++to;
    deficit = to < p ? step.target[to] - work[to] : 0.0;
  };
  next_deficit();
  for (std::size_t from = 0; from < p && to < p; ++from) {
    double surplus = work[from] - step.target[from];
    while (surplus > eps && to < p) {
      const double a = std::min(surplus, deficit);
      step.transfers.push_back({from, to, a});
      step.moved += a;
      traffic[from] += a;
      traffic[to] += a;
      surplus -= a;
      deficit -= a;
      if (!(deficit > eps)) {
        ++to;
        next_deficit();
      }
    }
  }
  step.busiest = *std::max_element(traffic.begin(), traffic.end());
  return step;
}

}  // namespace hetlb::balance
