// Ring redistribution planners (Renard, Robert, Vivien): O(n) versus O(n^2) maximal slice unbalance,
// the planners on 10^5 - 10^6 processors, and Algorithm 3 as printed (one step per unit of delta_max)
// versus the flow formulation whose cost does not grow with the number of items.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>

#include "bench_ratio.hpp"
#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/slice_unbalance.hpp"
#include "hetlb/ring/unidirectional.hpp"
#include "hetlb/ring/verify.hpp"

using namespace hetlb;
using namespace hetlb::ring;

namespace {

struct Lcg {
  std::uint64_t s;
  std::uint64_t next() { return s = s * 6364136223846793005ULL + 1442695040888963407ULL; }
  Count below(Count m) { return static_cast<Count>((next() >> 17) % static_cast<std::uint64_t>(m)); }
};

// n processors holding 1000..1999 items; the unbalance is scale * (a_i - a_{i+1}) with a_i in 0..99
// (imbalances between neighbours: bounded flows) or, when `walk`, independent (flows grow like a
// random walk). Costs 1 (homogeneous) or 0.5..2.5 per item and direction.
Ring make_ring(std::size_t n, Count scale, bool walk, bool heterogeneous, bool bidirectional) {
  Lcg g{42 + n};
  Ring r;
  r.loads.resize(n);
  std::vector<Count> a(n);
  for (std::size_t i = 0; i < n; ++i) {
    r.loads[i] = (1000 + g.below(1000)) * scale;
    a[i] = g.below(100);
  }
  r.targets.resize(n);
  Count sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Count d = walk ? (g.below(201) - 100) * scale : (a[i] - a[(i + 1) % n]) * scale;
    r.targets[i] = r.loads[i] - d;
    sum += d;
  }
  for (std::size_t i = 0; sum != 0; ++i) {  // conservation, spread so that every target stays > 0
    const Count c = std::clamp(sum, -500 * scale, 500 * scale);
    r.targets[i] += c;
    sum -= c;
  }
  auto cost = [&] { return heterogeneous ? 0.5 + static_cast<double>(g.below(2001)) / 1000.0 : 1.0; };
  for (std::size_t i = 0; i < n; ++i) r.succ_cost.push_back(cost());
  if (bidirectional)
    for (std::size_t i = 0; i < n; ++i) r.pred_cost.push_back(cost());
  return r;
}

std::vector<Count> deltas(std::size_t n) {
  const Ring r = make_ring(n, 1, true, false, false);
  return unbalances(r);
}

void BM_MaxSlice_Naive(benchmark::State& st) {
  const auto d = deltas(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(max_slice_unbalance_naive(d));
}
BENCHMARK(BM_MaxSlice_Naive)->Arg(4096)->Unit(benchmark::kMillisecond);

void BM_MaxSlice_Linear(benchmark::State& st) {
  const auto d = deltas(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(max_slice_unbalance(d));
}
BENCHMARK(BM_MaxSlice_Linear)->Arg(4096)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
HETLB_RATIO("BM_MaxSlice_Naive/4096", "BM_MaxSlice_Linear/4096");

void report(benchmark::State& st, const Plan& p) {
  st.counters["transfers"] = static_cast<double>(p.transfers.size());
  st.counters["optimal"] = p.optimal ? 1 : 0;
  st.counters["gap"] = p.lower_bound > 0 ? p.time / p.lower_bound - 1 : 0;
}

// Unidirectional, 10^6 processors. Args: n, walk (0: neighbour imbalances, 1: random walk).
void BM_Algorithm1(benchmark::State& st) {
  const Ring r = make_ring(static_cast<std::size_t>(st.range(0)), 1, st.range(1) != 0, false, false);
  Plan p;
  for (auto _ : st) p = plan_redistribution(r);
  report(st, p);
}
BENCHMARK(BM_Algorithm1)->Args({1'000'000, 0})->Args({1'000'000, 1})->Unit(benchmark::kMillisecond);

void BM_Algorithm2(benchmark::State& st) {
  const Ring r = make_ring(static_cast<std::size_t>(st.range(0)), 1, st.range(1) != 0, true, false);
  Plan p;
  for (auto _ : st) p = plan_redistribution(r);
  report(st, p);
}
BENCHMARK(BM_Algorithm2)->Args({1'000'000, 0})->Args({10'000, 1})->Unit(benchmark::kMillisecond);

// Homogeneous bidirectional: the flow formulation on 10^5 processors, unbalance x1, x100, x10^4.
void BM_HomogeneousBidirectional(benchmark::State& st) {
  const Ring r = make_ring(static_cast<std::size_t>(st.range(0)), st.range(1), true, false, true);
  Plan p;
  for (auto _ : st) p = plan_redistribution(r);
  report(st, p);
  st.counters["D"] = p.time;
}
BENCHMARK(BM_HomogeneousBidirectional)
    ->Args({100'000, 1})->Args({100'000, 100})->Args({100'000, 10'000})->Args({1'000'000, 1})
    ->Unit(benchmark::kMillisecond);

// Algorithm 3 as printed versus the flow formulation on 64 processors, unbalance x1 and x10.
void BM_Algorithm3_Steps(benchmark::State& st) {
  const Ring r = make_ring(64, st.range(0), true, false, true);
  Plan p;
  for (auto _ : st) p = plan_algorithm3_steps(r);
  st.counters["D"] = p.time;
}
BENCHMARK(BM_Algorithm3_Steps)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);

void BM_Algorithm3_Flow(benchmark::State& st) {
  const Ring r = make_ring(64, st.range(0), true, false, true);
  Plan p;
  for (auto _ : st) p = plan_homogeneous_bidirectional(r);
  st.counters["D"] = p.time;
}
BENCHMARK(BM_Algorithm3_Flow)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);
HETLB_RATIO("BM_Algorithm3_Steps/1", "BM_Algorithm3_Flow/1");
HETLB_RATIO("BM_Algorithm3_Steps/10", "BM_Algorithm3_Flow/10");

// Heterogeneous bidirectional (System 6 through the flow on one link) on 10^5 processors.
// Args: n, unbalance scale, walk.
void BM_System6(benchmark::State& st) {
  const Ring r = make_ring(static_cast<std::size_t>(st.range(0)), st.range(1), st.range(2) != 0, true, true);
  Plan p;
  for (auto _ : st) p = plan_redistribution(r);
  report(st, p);
}
BENCHMARK(BM_System6)
    ->Args({100'000, 1, 0})->Args({100'000, 10'000, 0})->Args({10'000, 1, 1})->Args({1'000'000, 1, 0})
    ->Unit(benchmark::kMillisecond);

void BM_Verify(benchmark::State& st) {
  const Ring r = make_ring(static_cast<std::size_t>(st.range(0)), 1, false, true, true);
  const Plan p = plan_redistribution(r);
  for (auto _ : st) benchmark::DoNotOptimize(verify_schedule(r, p.transfers, p.time));
  st.counters["transfers"] = static_cast<double>(p.transfers.size());
}
BENCHMARK(BM_Verify)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
