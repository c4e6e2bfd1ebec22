// Reading and writing at scale (docs/limits.md): a platform of 100,000 processors read through the JSON
// tree and straight into the platform, a scatter plan written as a JSON tree and streamed, and the whole
// of `hetlb scatter --format json` in the process (read, plan, write; the file and the process's start
// aside). Ratios against the tree, measured in the same run.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <map>
#include <sstream>
#include <string>

#include "bench_ratio.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/io/scatter_json.hpp"
#include "hetlb/scatter/solve.hpp"
#include "platform_json_direct.hpp"

namespace {
using namespace hetlb;

const std::string& platform_text(std::size_t n) {
  static std::map<std::size_t, std::string> texts;
  std::string& text = texts[n];
  if (text.empty()) {
    text = "{\"items\": 1000000, \"processors\": [";
    for (std::size_t i = 0; i < n; ++i)
      text += fmt::format("{}{{\"name\": \"p{}\", \"compute\": {{\"per_item\": {}}}, \"comm\": {{\"per_item\": 0.5}}}}",
                          i ? ", " : "", i, 1 + 1e-6 * static_cast<double>(i));
    text += "]}";
  }
  return text;
}

const scatter::Result& plan(std::size_t n) {
  static std::map<std::size_t, scatter::Result> plans;
  auto it = plans.find(n);
  if (it == plans.end()) it = plans.emplace(n, scatter::plan_scatter(io::parse_platform_json(platform_text(n)), {})).first;
  return it->second;
}

void BM_PlatformJson_Tree(benchmark::State& state) {
  const std::string& text = platform_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(io::detail::read_platform_tree(text, "bench.json"));
}
void BM_PlatformJson_Direct(benchmark::State& state) {
  const std::string& text = platform_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(io::parse_platform_json(text, "bench.json"));
}
void BM_ScatterJson_Tree(benchmark::State& state) {
  const scatter::Result& r = plan(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(io::scatter_json(r).dump(2));
}
void BM_ScatterJson_Streamed(benchmark::State& state) {
  const scatter::Result& r = plan(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    std::ostringstream out;
    io::write_scatter_json(out, r, nlohmann::json::object());
    benchmark::DoNotOptimize(out.str());
  }
}
// Read, plan and write, as `hetlb scatter --format json` does them.
void BM_ScatterEndToEnd_Tree(benchmark::State& state) {
  const std::string& text = platform_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(io::scatter_json(scatter::plan_scatter(io::detail::read_platform_tree(text, "b"), {})).dump(2));
}
void BM_ScatterEndToEnd_Streamed(benchmark::State& state) {
  const std::string& text = platform_text(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    std::ostringstream out;
    io::write_scatter_json(out, scatter::plan_scatter(io::parse_platform_json(text, "b"), {}), nlohmann::json::object());
    benchmark::DoNotOptimize(out.str());
  }
}

}  // namespace

BENCHMARK(BM_PlatformJson_Tree)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlatformJson_Direct)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScatterJson_Tree)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScatterJson_Streamed)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScatterEndToEnd_Tree)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScatterEndToEnd_Streamed)->Arg(100000)->Unit(benchmark::kMillisecond);
HETLB_RATIO("BM_PlatformJson_Tree/100000", "BM_PlatformJson_Direct/100000");
HETLB_RATIO("BM_ScatterJson_Tree/100000", "BM_ScatterJson_Streamed/100000");
HETLB_RATIO("BM_ScatterEndToEnd_Tree/100000", "BM_ScatterEndToEnd_Streamed/100000");
