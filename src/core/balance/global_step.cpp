// Target shares and surplus-to-deficit transfers of a global balancing step (global_step.hpp): RR-4770's
// divisible optimum (Theorems 1 and 2) with free links, rounded to the integer optimum.
#include "hetlb/balance/global_step.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::balance {

namespace {

// The least makespan max(n_i / s_i) over whole counts summing to `units` (uniform machines, unit jobs):
// from the floors of the divisible shares, each unit left goes to the rank that would finish it first,
// (n_i + 1) / s_i smallest, ties to the lower rank. Greedy is exact here: the floors fit under any
// integer optimum's makespan, and each step takes the smallest makespan increment available.
std::vector<Count> least_makespan_counts(const std::vector<double>& shares, const std::vector<double>& speed,
                                         Count units) {
  const std::size_t p = shares.size();
  std::vector<Count> n(p, 0);
  Count sum = 0;
  for (std::size_t r = 0; r < p; ++r) {
    n[r] = static_cast<Count>(std::floor(std::max(0.0, shares[r])));
    sum += n[r];
  }
  while (sum > units) {  // floating noise above the total: off the rank that finishes last
    std::size_t last = 0;
    for (std::size_t r = 1; r < p; ++r)
      if (n[r] > 0 && (n[last] == 0 || static_cast<double>(n[r]) / speed[r] > static_cast<double>(n[last]) / speed[last]))
        last = r;
    --n[last];
    --sum;
  }
  using Next = std::pair<double, std::size_t>;  // the finish time with one more unit, the rank
  std::priority_queue<Next, std::vector<Next>, std::greater<>> next;
  for (std::size_t r = 0; r < p; ++r) next.emplace(static_cast<double>(n[r] + 1) / speed[r], r);
  for (; sum < units; ++sum) {
    const std::size_t r = next.top().second;
    next.pop();
    ++n[r];
    next.emplace(static_cast<double>(n[r] + 1) / speed[r], r);
  }
  return n;
}

}  // namespace

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
    const std::vector<Count> counts =
        least_makespan_counts(scatter::solve_rational_linear(c, w, units).shares, speed, units);
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
