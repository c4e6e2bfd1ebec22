// Iterative ring applications (ring/redistribution_policy.hpp): 10^6 iterations of a 1,024-processor
// ring under the cost-model policy and under "never" and "every:100" (moving window), and the offline
// optimum at 1,000 iterations of 64 processors.
#include <benchmark/benchmark.h>

#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/offline_optimum.hpp"
#include "hetlb/ring/redistribution_policy.hpp"

using namespace hetlb;
using namespace hetlb::ring;

namespace {

IterativeApp make_app(std::size_t n, double ratio) {
  IterativeApp a;
  a.ring.loads.assign(n, 100);
  a.ring.targets = a.ring.loads;
  for (std::size_t i = 0; i < n; ++i) {
    a.ring.succ_cost.push_back(0.5 + static_cast<double>(i * 7 % 5) * 0.25);
    a.speeds.push_back(1.0 + static_cast<double>(i * 3 % 4) * 0.25);
    a.ring.loads[i] = static_cast<Count>(100 * a.speeds[i]);
  }
  a.ring.loads = window_initial_loads(a.ring.loads, n / 8, 100);
  a.compute_cost = ratio;
  return a;
}

void BM_RingIterations(benchmark::State& state, const char* spec) {
  const std::size_t n = 1024, iterations = static_cast<std::size_t>(state.range(0));
  const IterativeApp app = make_app(n, 0.01);
  const auto drift = window_drift(n, n / 8, 100, 0.25);
  for (auto _ : state) {
    auto policy = make_policy(spec);
    const RunResult r = run_iterations(app, *drift, *policy, iterations);
    benchmark::DoNotOptimize(r.total_time);
    state.counters["redistributions"] = static_cast<double>(r.redistributions);
  }
}
BENCHMARK_CAPTURE(BM_RingIterations, model, "model")->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_RingIterations, never, "never")->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_RingIterations, every100, "every:100")->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_RingOfflineOptimum(benchmark::State& state) {
  const std::size_t n = 64, iterations = static_cast<std::size_t>(state.range(0));
  const IterativeApp app = make_app(n, 0.01);
  const auto drift = window_drift(n, n / 8, 100, 0.25);
  for (auto _ : state) {
    const RunResult r = offline_optimum(app, *drift, iterations);
    benchmark::DoNotOptimize(r.total_time);
    state.counters["redistributions"] = static_cast<double>(r.redistributions);
  }
}
BENCHMARK(BM_RingOfflineOptimum)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
