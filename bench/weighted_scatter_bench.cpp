// Weighted scatter (docs/weighted-items.md): planning time at scale against the count planner, and a
// fractal image whose rows cost unequally, against the ideal (work / total speed), equal blocks, the
// count plan and a master-worker loop (simulated on the same row costs).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <complex>
#include <numeric>
#include <queue>

#include "bench_ratio.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/uniform.hpp"
#include "hetlb/scatter/weighted.hpp"

using namespace hetlb;
using namespace hetlb::scatter;

namespace {

std::uint64_t lcg(std::uint64_t& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 11;
}

// p processors, linear costs in bandwidth order (the exact greedy test applies), n items.
Problem linear_platform(std::size_t p, Count n, std::uint64_t seed) {
  Problem pb;
  pb.items = n;
  std::vector<double> c(p);
  for (auto& v : c) v = 1e-7 * (0.5 + static_cast<double>(lcg(seed) % 1000) / 1000.0);
  std::sort(c.begin(), c.end());
  for (std::size_t i = 0; i < p; ++i) {
    pb.names.push_back(fmt::format("p{}", i));
    pb.platform_index.push_back(i);
    pb.compute.push_back(CostFunction::linear(1e-3 * (0.2 + static_cast<double>(lcg(seed) % 1000) / 1000.0)));
    pb.comm.push_back(i + 1 == p ? CostFunction::linear(0) : CostFunction::linear(c[i]));
  }
  return pb;
}

WeightedItems random_weights(Count n, std::uint64_t seed) {
  WeightedItems it;
  it.work.resize(static_cast<std::size_t>(n));
  for (double& w : it.work) w = 1.0 + static_cast<double>(lcg(seed) % 16000) / 1000.0;  // 1 to 17
  return it;
}

void BM_WeightedContiguous_1e6Items_1000Procs(benchmark::State& st) {
  const Problem pb = linear_platform(1000, 1'000'000, 3);
  const WeightedItems it = random_weights(pb.items, 5);
  WeightedPlan plan;
  for (auto _ : st) benchmark::DoNotOptimize(plan = solve_weighted_contiguous(pb, it));
  st.counters["optimal"] = plan.optimal ? 1 : 0;
}
BENCHMARK(BM_WeightedContiguous_1e6Items_1000Procs)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_CountExact_1e6Items_1000Procs(benchmark::State& st) {  // the baseline: the same sizes, counts only
  const Problem pb = linear_platform(1000, 1'000'000, 3);
  for (auto _ : st) benchmark::DoNotOptimize(solve_exact(pb));
}
BENCHMARK(BM_CountExact_1e6Items_1000Procs)->Unit(benchmark::kMillisecond)->Iterations(3);
HETLB_RATIO("BM_CountExact_1e6Items_1000Procs/iterations:3", "BM_WeightedContiguous_1e6Items_1000Procs/iterations:3");

// Mandelbrot rows: the work of a row is its escape iterations (a fixed 800 x 800 view, 500 iterations).
std::vector<double> mandelbrot_rows() {
  const int size = 800, limit = 500;
  std::vector<double> rows(static_cast<std::size_t>(size), 0.0);
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const std::complex<double> c(-2.0 + 2.6 * x / size, -1.3 + 2.6 * y / size);
      std::complex<double> z = 0;
      int k = 0;
      while (k < limit && std::norm(z) <= 4.0) z = z * z + c, ++k;
      rows[static_cast<std::size_t>(y)] += 1 + k;
    }
  }
  return rows;
}

// Ranks of speed 1, 1, 0.5, 0.25 (seconds per unit of work 1, 1, 2, 4), free links, rank 0 the root.
Problem fractal_platform(Count rows) {
  Problem pb;
  pb.items = rows;
  const double per_unit[] = {1, 2, 4, 1};  // send order: ranks 1, 2, 3, then the root (rank 0)
  for (int i = 0; i < 4; ++i) {
    pb.names.push_back(fmt::format("rank{}", (i + 1) % 4));
    pb.platform_index.push_back(static_cast<std::size_t>(i));
    pb.compute.push_back(CostFunction::linear(per_unit[i] * 1e-6));
    pb.comm.push_back(CostFunction::linear(0));
  }
  return pb;
}

// Master-worker: rank 0 deals rows one at a time, in order, to the first worker free (ranks 1-3).
double master_worker(const Problem& pb, const std::vector<double>& rows) {
  using Slot = std::pair<double, std::size_t>;  // (free at, worker)
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> free;
  for (std::size_t w = 0; w + 1 < pb.size(); ++w) free.push({0.0, w});
  double end = 0;
  for (double r : rows) {
    auto [t, w] = free.top();
    free.pop();
    t += pb.compute[w].eval(r);
    end = std::max(end, t);
    free.push({t, w});
  }
  return end;
}

void BM_FractalRows_4Ranks(benchmark::State& st) {
  const std::vector<double> rows = mandelbrot_rows();
  WeightedItems it;
  it.work = rows;
  const Problem pb = fractal_platform(it.count());
  WeightedPlan contiguous, any;
  for (auto _ : st) {
    benchmark::DoNotOptimize(contiguous = solve_weighted_contiguous(pb, it));
    benchmark::DoNotOptimize(any = solve_weighted_any(pb, it));
  }
  const double work = std::accumulate(rows.begin(), rows.end(), 0.0);
  double speed = 0;
  for (const auto& c : pb.compute) speed += 1.0 / c.per_item();
  const double ideal = work / speed;
  const auto [lo, hi] = std::minmax_element(rows.begin(), rows.end());
  const Plan counted = solve_exact(pb);  // equal-cost items: the plan of a count-only planner
  const Plan equal = solve_uniform(pb);
  st.counters["row_cost_spread"] = *hi / *lo;
  st.counters["weighted_vs_ideal"] = contiguous.makespan / ideal;
  st.counters["any_vs_ideal"] = any.makespan / ideal;
  st.counters["count_plan_vs_ideal"] = evaluate_weighted(pb, it, contiguous_owner(counted.items)).makespan / ideal;
  st.counters["equal_blocks_vs_ideal"] = evaluate_weighted(pb, it, contiguous_owner(equal.items)).makespan / ideal;
  st.counters["master_worker_vs_ideal"] = master_worker(pb, rows) / ideal;
}
BENCHMARK(BM_FractalRows_4Ranks)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
