// Ratios printed after the run: HETLB_RATIO(baseline_name, candidate_name) with full benchmark names.
#pragma once
#include <string>
#include <vector>

namespace hetlb::bench {
struct Ratio {
  std::string baseline, candidate;
};
std::vector<Ratio>& ratios();
struct RatioRegistrar {
  RatioRegistrar(std::string baseline, std::string candidate) { ratios().push_back({baseline, candidate}); }
};
}  // namespace hetlb::bench

#define HETLB_RATIO_CAT2(a, b) a##b
#define HETLB_RATIO_CAT(a, b) HETLB_RATIO_CAT2(a, b)
#define HETLB_RATIO(baseline, candidate) \
  static ::hetlb::bench::RatioRegistrar HETLB_RATIO_CAT(hetlb_ratio_, __LINE__)(baseline, candidate)
