// Scatter planners (RR-4770): dp versus exact on the paper's experiment, and scale runs.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "bench_ratio.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/guaranteed_heuristic.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/root_choice.hpp"
#include "hetlb/scatter/send_order.hpp"
#include "hetlb/scatter/solve.hpp"

#include <random>

using namespace hetlb;
using namespace hetlb::scatter;

namespace {

Problem grid1999(OrderPolicy order = OrderPolicy::Bandwidth) {
  const Platform pf = io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json");
  return make_problem(pf, send_order(pf, pf.root, order), pf.items);
}

// p processors with costs drawn from a fixed linear congruential sequence (deterministic).
Problem synthetic(std::size_t p, Count items, bool affine, double latency = 1e-6, bool random_order = false) {
  Problem pb;
  pb.items = items;
  std::uint64_t s = 12345;
  auto next = [&] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(s >> 11) / 9007199254740992.0;
  };
  std::vector<double> c(p);
  for (auto& v : c) v = 1e-6 * (0.5 + next());
  std::sort(c.begin(), c.end());  // decreasing bandwidth
  if (random_order) std::shuffle(c.begin(), c.end(), std::mt19937_64(7));
  for (std::size_t i = 0; i < p; ++i) {
    pb.names.push_back(fmt::format("p{}", i));
    pb.platform_index.push_back(i);
    const double w = 1e-2 * (0.2 + next());
    const bool root = i + 1 == p;
    pb.compute.push_back(affine ? CostFunction::affine(latency * next(), w) : CostFunction::linear(w));
    pb.comm.push_back(root ? CostFunction::linear(0) : affine ? CostFunction::affine(latency * next(), c[i])
                                                                  : CostFunction::linear(c[i]));
  }
  return pb;
}

void BM_Grid1999_Dp(benchmark::State& st) {
  const Problem pb = grid1999();
  for (auto _ : st) benchmark::DoNotOptimize(solve_dp(pb));
  st.counters["memory_MB"] = static_cast<double>(dp_memory_bytes(pb)) / 1e6;
  st.counters["makespan"] = solve_dp(pb).makespan;
}
BENCHMARK(BM_Grid1999_Dp)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Grid1999_Exact(benchmark::State& st) {
  const Problem pb = grid1999();
  for (auto _ : st) benchmark::DoNotOptimize(solve_exact(pb));
  st.counters["makespan"] = solve_exact(pb).makespan;
}
BENCHMARK(BM_Grid1999_Exact)->Unit(benchmark::kMillisecond);

// Table 1 with a 1 ms latency on every link: exact by the Pareto frontier of used processors.
void BM_Grid1999Latency_Exact(benchmark::State& st) {
  Problem pb = grid1999();
  for (std::size_t i = 0; i + 1 < pb.size(); ++i) pb.comm[i] = CostFunction::affine(1e-3, pb.comm[i].per_item());
  for (auto _ : st) benchmark::DoNotOptimize(solve_exact(pb));
  st.SetLabel(solve_exact(pb).method);
}
BENCHMARK(BM_Grid1999Latency_Exact)->Unit(benchmark::kMillisecond);

// The paper's second order (increasing bandwidth): Algorithm 2 against the windowed frontier.
void BM_Grid1999Reverse_Dp(benchmark::State& st) {
  const Problem pb = grid1999(OrderPolicy::ReverseBandwidth);
  for (auto _ : st) benchmark::DoNotOptimize(solve_dp(pb));
  st.counters["makespan"] = solve_dp(pb).makespan;
}
BENCHMARK(BM_Grid1999Reverse_Dp)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Grid1999Reverse_Exact(benchmark::State& st) {
  const Problem pb = grid1999(OrderPolicy::ReverseBandwidth);
  for (auto _ : st) benchmark::DoNotOptimize(solve_exact(pb));
  st.counters["makespan"] = solve_exact(pb).makespan;
}
BENCHMARK(BM_Grid1999Reverse_Exact)->Unit(benchmark::kMillisecond);

// What `hetlb compare examples/grid1999.json` computes by default: 4 algorithms x the paper's 2 orders.
void BM_Grid1999_CompareDefault(benchmark::State& st) {
  const Platform pf = io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json");
  for (auto _ : st)
    for (OrderPolicy o : {OrderPolicy::Bandwidth, OrderPolicy::ReverseBandwidth})
      for (Algorithm a : {Algorithm::Uniform, Algorithm::Exact, Algorithm::Lp, Algorithm::ClosedForm}) {
        Request r;
        r.algorithm = a;
        r.order = o;
        benchmark::DoNotOptimize(plan_scatter(pf, r));
      }
}
BENCHMARK(BM_Grid1999_CompareDefault)->Unit(benchmark::kMillisecond);

// p processors in a random send order, n = 10^8: exact by the windowed frontier.
void BM_RandomOrder_Exact(benchmark::State& st) {
  const Problem pb = synthetic(static_cast<std::size_t>(st.range(0)), 100'000'000, st.range(1) != 0, 1e-6, true);
  for (auto _ : st) benchmark::DoNotOptimize(solve_exact(pb));
  const Plan plan = solve_exact(pb);
  st.counters["optimal"] = plan.optimal;
}
BENCHMARK(BM_RandomOrder_Exact)->Args({1000, 0})->Args({1000, 1})->Unit(benchmark::kMillisecond);

void BM_Grid1999_Lp(benchmark::State& st) {
  const Problem pb = grid1999();
  for (auto _ : st) benchmark::DoNotOptimize(solve_lp(pb));
}
BENCHMARK(BM_Grid1999_Lp)->Unit(benchmark::kMillisecond);

void BM_Scale_Exact_Linear(benchmark::State& st) {
  const Problem pb = synthetic(static_cast<std::size_t>(st.range(0)), 1'000'000'000, false);
  for (auto _ : st) benchmark::DoNotOptimize(solve_exact(pb));
}
BENCHMARK(BM_Scale_Exact_Linear)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_Scale_Lp_Affine(benchmark::State& st) {
  const Problem pb = synthetic(static_cast<std::size_t>(st.range(0)), 1'000'000'000, true);
  for (auto _ : st) benchmark::DoNotOptimize(solve_lp(pb));
}
BENCHMARK(BM_Scale_Lp_Affine)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

// LP (3) by GLPK's exact rational simplex: the baseline of the closed method.
void BM_Lp_Affine_GlpkExact(benchmark::State& st) {
  const Problem pb = synthetic(static_cast<std::size_t>(st.range(0)), 1'000'000'000, true);
  for (auto _ : st) benchmark::DoNotOptimize(solve_lp_glpk(pb, true));
}
BENCHMARK(BM_Lp_Affine_GlpkExact)->Arg(1000)->Unit(benchmark::kMillisecond);

// Issue 31's growth cases at 1,000 and 10,000 processors. A platform whose data sit on p0, costs from
// the same deterministic sequence; `free_transfer`: moving the data to any root costs nothing (the
// root choice's bounds then prune little: its worst case).
Platform synthetic_platform(std::size_t p, bool affine, bool free_transfer = false) {
  Platform pf;
  pf.name = "synthetic";
  pf.items = 1'000'000;
  std::uint64_t s = 4770;
  auto next = [&] {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(s >> 11) / 9007199254740992.0;
  };
  for (std::size_t i = 0; i < p; ++i) {
    const double w = 2e-3 + 1.8e-2 * next(), c = i == 0 ? 0.0 : 1e-6 + 9.9e-5 * next();
    const double lw = affine ? 1e-3 * next() : 0.0, lc = affine && i > 0 ? 1e-3 * next() : 0.0;
    Processor proc{fmt::format("p{}", i), CostFunction::affine(lw, w), CostFunction::affine(lc, c), std::nullopt};
    if (free_transfer) proc.transfer = CostFunction::linear(0);
    pf.processors.push_back(proc);
  }
  return pf;
}

// --root auto (Section 3.4): branch and bound on the candidates' lower bounds.
void BM_RootAuto(benchmark::State& st) {
  const Platform pf = synthetic_platform(static_cast<std::size_t>(st.range(0)), false, st.range(1) != 0);
  Request r;
  r.root = "auto";
  std::size_t solved = 0;
  for (auto _ : st) {
    const Result res = plan_scatter(pf, r);
    solved = 0;
    for (const RootCandidate& c : res.root_candidates) solved += c.bound_only ? 0 : 1;
  }
  st.counters["candidates_solved"] = static_cast<double>(solved);
}
BENCHMARK(BM_RootAuto)->Args({1000, 0})->Args({10000, 0})->Args({1000, 1})->Unit(benchmark::kMillisecond);

// The former root choice: every candidate solved from scratch (the baseline).
void BM_RootAuto_FromScratch(benchmark::State& st) {
  const Platform pf = synthetic_platform(static_cast<std::size_t>(st.range(0)), false, st.range(1) != 0);
  for (auto _ : st) {
    double best = std::numeric_limits<double>::infinity();
    for (const Processor& proc : pf.processors) {
      Request r;
      r.root = proc.name;
      const Result res = plan_scatter(pf, r);
      best = std::min(best, res.transfer + res.plan.makespan);
    }
    benchmark::DoNotOptimize(best);
  }
}
BENCHMARK(BM_RootAuto_FromScratch)->Args({1000, 0})->Args({1000, 1})->Unit(benchmark::kMillisecond)->Iterations(1);

// `lp`'s GLPK fallback (affine costs whose latencies defeat the closed method), as solve_lp_affine
// runs it: the exact rational simplex up to 2,000 processors, the floating one beyond (limit 20,000).
void BM_Lp_GlpkFallback(benchmark::State& st) {
  const Platform pf = synthetic_platform(static_cast<std::size_t>(st.range(0)), true);
  const Problem pb = make_problem(pf, send_order(pf, pf.root, OrderPolicy::Bandwidth), pf.items);
  for (auto _ : st) benchmark::DoNotOptimize(solve_lp_glpk(pb, pb.size() <= 2000));
  st.SetLabel(pb.size() <= 2000 ? "GLPK, exact rational simplex" : "GLPK, floating-point simplex");
}
BENCHMARK(BM_Lp_GlpkFallback)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(1);

// --order best (limit 10,000 processors): local search on rounded relaxations.
void BM_OrderBest(benchmark::State& st) {
  const Platform pf = synthetic_platform(static_cast<std::size_t>(st.range(0)), false);
  for (auto _ : st) benchmark::DoNotOptimize(search_order(pf, pf.root, pf.items));
}
BENCHMARK(BM_OrderBest)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

HETLB_RATIO("BM_RootAuto_FromScratch/1000/0/iterations:1", "BM_RootAuto/1000/0");
HETLB_RATIO("BM_Grid1999_Dp/iterations:1", "BM_Grid1999_Exact");
HETLB_RATIO("BM_Grid1999Reverse_Dp/iterations:1", "BM_Grid1999Reverse_Exact");
HETLB_RATIO("BM_Lp_Affine_GlpkExact/1000", "BM_Scale_Lp_Affine/1000");

// Reading a platform of n distinct processors (one JSON object each): linear in n (the fitted complexity
// and its RMS print after the runs; docs/limits.md gives 1,000,000 processors end to end).
namespace {
std::string distinct_platform_json(std::size_t n) {
  std::string text = "{\"items\": 1000000, \"processors\": [";
  for (std::size_t i = 0; i < n; ++i)
    text += fmt::format("{}{{\"name\": \"p{}\", \"compute\": {{\"per_item\": {}}}, \"comm\": {{\"per_item\": 0.5}}}}",
                        i ? ", " : "", i, 1 + 1e-6 * static_cast<double>(i));
  return text + "]}";
}
void BM_PlatformJson_Distinct(benchmark::State& state) {
  const std::string text = distinct_platform_json(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(io::parse_platform_json(text, "bench.json"));
  state.SetComplexityN(state.range(0));
}
}  // namespace
BENCHMARK(BM_PlatformJson_Distinct)->Arg(10000)->Arg(40000)->Arg(160000)->Complexity(benchmark::oN)
    ->Unit(benchmark::kMillisecond)->Iterations(1);
