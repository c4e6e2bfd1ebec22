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

// A baseline matched to the candidate's density of simulated dates: two baselines with few and many
// dates per event (counter "dates_per_event"), interpolated linearly at the candidate's dates per event.
struct DateMatched {
  std::string few, many, candidate;
};
std::vector<DateMatched>& date_matched();
struct DateMatchedRegistrar {
  DateMatchedRegistrar(std::string few, std::string many, std::string candidate) {
    date_matched().push_back({few, many, candidate});
  }
};
}  // namespace hetlb::bench

#define HETLB_RATIO_CAT2(a, b) a##b
#define HETLB_RATIO_CAT(a, b) HETLB_RATIO_CAT2(a, b)
#define HETLB_RATIO(baseline, candidate) \
  static ::hetlb::bench::RatioRegistrar HETLB_RATIO_CAT(hetlb_ratio_, __LINE__)(baseline, candidate)
#define HETLB_DATE_MATCHED(few, many, candidate) \
  static ::hetlb::bench::DateMatchedRegistrar HETLB_RATIO_CAT(hetlb_date_matched_, __LINE__)(few, many, candidate)
