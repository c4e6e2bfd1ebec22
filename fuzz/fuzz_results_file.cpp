// libFuzzer target for a campaign's results file and what reads it: the input is a results CSV of
// the smoke spec (study/smoke.json, embedded here); it is refused with one hetlb::Error
// line, or its rows are compared, summarised and paired without crashing, whatever their cells hold
// (cut rows, text or NaN where numbers are expected, unknown statuses, duplicated keys).
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "hetlb/error.hpp"
#include "results_file.hpp"
#include "spec.hpp"
#include "summary.hpp"

namespace {
const hetlb::campaign::Spec& smoke_spec() {
  static const hetlb::campaign::Spec spec = [] {
    const std::string path = "/tmp/hetlb-fuzz-results-spec-" + std::to_string(::getpid()) + ".json";
    std::ofstream(path) << R"({"spec_version": "smoke-1", "strategies": ["besteffort:1", "besteffort:2", "makhoul", "simple"],
      "virtual_load": [false, true], "integer": [false], "platforms": ["cluster"], "nodes": [16],
      "topologies": ["line", "hypercube"], "initial": ["single", "random"], "seeds": [1], "ratios": [1, 0.1],
      "iterations": 20, "timeout_seconds": 120})";
    hetlb::campaign::Spec s = hetlb::campaign::read_spec(path);
    ::unlink(path.c_str());
    return s;
  }();
  return spec;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const hetlb::campaign::Spec& spec = smoke_spec();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto rows = hetlb::campaign::parse_results("fuzz.csv", text, spec.version);
    for (const std::string metric : {"", "avg_idle_time", "data_messages"}) {
      const hetlb::campaign::Comparison c = hetlb::campaign::compare(spec, rows, metric);
      std::ostringstream out;
      hetlb::campaign::print_summary(out, c);
      hetlb::campaign::virtual_pairs(c);
      hetlb::campaign::k_pairs(c);
    }
  } catch (const hetlb::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
