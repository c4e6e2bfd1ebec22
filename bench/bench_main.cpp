// make bench: runs every benchmark, then prints the ratio tables declared with HETLB_RATIO: each
// ratio compares two benchmarks measured in this same run (a baseline and a candidate).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>

#include "hetlb/build_info.hpp"
#include "bench_ratio.hpp"

namespace {
class RecordingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration) {
        times[r.benchmark_name()] = r.GetAdjustedRealTime();
        if (auto d = r.counters.find("dates_per_event"); d != r.counters.end()) dates[r.benchmark_name()] = d->second;
      }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> times, dates;
};
}  // namespace

namespace hetlb::bench {
std::vector<Ratio>& ratios() {
  static std::vector<Ratio> all;
  return all;
}
std::vector<DateMatched>& date_matched() {
  static std::vector<DateMatched> all;
  return all;
}
}  // namespace hetlb::bench

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-bench")) return 0;  // before MPI or any parsing
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
  if (!hetlb::bench::date_matched().empty())
    std::printf("\n| candidate | dates per event: few / many / candidate | baseline time: few / many / matched | "
                "candidate time | candidate / matched |\n|---|---|---|---|---|\n");
  for (const auto& d : hetlb::bench::date_matched()) {
    const auto& t = reporter.times;
    const auto& e = reporter.dates;
    if (!t.count(d.few) || !t.count(d.many) || !t.count(d.candidate) || !e.count(d.few) || !e.count(d.many) ||
        !e.count(d.candidate) || e.at(d.many) <= e.at(d.few))
      continue;
    const double f = (e.at(d.candidate) - e.at(d.few)) / (e.at(d.many) - e.at(d.few));
    const double matched = t.at(d.few) + f * (t.at(d.many) - t.at(d.few));
    std::printf("| %s | %.3f / %.3f / %.3f | %.4g / %.4g / %.4g | %.4g | %.2f |\n", d.candidate.c_str(), e.at(d.few),
                e.at(d.many), e.at(d.candidate), t.at(d.few), t.at(d.many), matched, t.at(d.candidate),
                t.at(d.candidate) / matched);
  }
  benchmark::Shutdown();
  return 0;
}
