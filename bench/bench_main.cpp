// make bench: runs every benchmark, then prints the ratio tables declared with HETLB_RATIO: each
// ratio compares two benchmarks measured in this same run (a baseline and a candidate).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>

#include "bench_ratio.hpp"

namespace {
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration) times[r.benchmark_name()] = r.GetAdjustedRealTime();
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> times;
};
}  // namespace

namespace hetlb::bench {
std::vector<Ratio>& ratios() {
  static std::vector<Ratio> all;
  return all;
}
}  // namespace hetlb::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  RecordingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\n| baseline | candidate | baseline time | candidate time | speed-up |\n|---|---|---|---|---|\n");
  for (const auto& r : hetlb::bench::ratios()) {
    auto b = reporter.times.find(r.baseline), c = reporter.times.find(r.candidate);
    if (b == reporter.times.end() || c == reporter.times.end()) continue;
    std::printf("| %s | %s | %.4g | %.4g | %.1fx |\n", r.baseline.c_str(), r.candidate.c_str(), b->second, c->second,
                b->second / c->second);
  }
  benchmark::Shutdown();
  return 0;
}
