// The offline optimum of an iterative ring application (offline_optimum.hpp): dynamic programming over
// the iteration of the last redistribution.
#include "hetlb/ring/offline_optimum.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "hetlb/error.hpp"

namespace hetlb::ring {

RunResult offline_optimum(const IterativeApp& app, const Drift& drift, std::size_t iterations) {
  validate(app);
  const std::size_t n = app.ring.size(), N = iterations;
  const double size = static_cast<double>(N) * static_cast<double>(N) * static_cast<double>(n);
  if (size > kOfflineOptimumLimit)
    throw Error("--policy optimal: " + std::to_string(N) + " iterations x " + std::to_string(n) +
                " processors is above the offline optimum's limit (iterations^2 x processors <= 6.4e7, e.g. "
                "1,000 iterations of 64 processors)");
  const double w = app.compute_cost;
  std::vector<double> inv(n);
  for (std::size_t i = 0; i < n; ++i) inv[i] = 1 / app.speeds[i];
  const Count total = std::accumulate(app.ring.loads.begin(), app.ring.loads.end(), Count{0});
  const std::vector<Count> targets = balanced_targets(total, app.speeds);
  const auto iteration_time = [&](const std::vector<Count>& l) {
    double top = -1;
    for (std::size_t i = 0; i < n; ++i) top = std::max(top, static_cast<double>(l[i]) * inv[i]);
    return w * top;
  };
  // best[r]: least time of iterations 0..r-1 plus a redistribution before r; from[r]: the previous one
  // (N: none). The run from `start` (N: the initial loads at 0) to the next redistribution.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> best(N, inf);
  std::vector<std::size_t> from(N, N);
  double best_total = inf;
  std::size_t last = N;
  std::vector<Count> loads;
  Delta delta;
  {  // no redistribution before t: the initial loads drift
    loads = app.ring.loads;
    double spent = 0;
    for (std::size_t t = 0; t < N; ++t) {
      const double c = redistribution_cost(app.ring, loads, targets).time;
      if (spent + c < best[t]) best[t] = spent + c, from[t] = N;
      spent += iteration_time(loads);
      drift.delta(t, delta);
      apply_delta(loads, delta);
    }
    best_total = spent;
  }
  for (std::size_t s = 0; s < N; ++s) {
    loads = targets;
    double spent = best[s];
    for (std::size_t t = s; t < N; ++t) {
      if (t > s) {
        const double c = redistribution_cost(app.ring, loads, targets).time;
        if (spent + c < best[t]) best[t] = spent + c, from[t] = s;
      }
      spent += iteration_time(loads);
      drift.delta(t, delta);
      apply_delta(loads, delta);
    }
    if (spent < best_total) best_total = spent, last = s;
  }
  std::vector<std::size_t> at;
  for (std::size_t s = last; s != N; s = from[s]) at.push_back(s);
  auto policy = fixed_policy(at);
  return run_iterations(app, drift, *policy, N);
}

}  // namespace hetlb::ring
