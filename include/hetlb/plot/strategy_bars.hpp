// Bar charts comparing load-balancing strategies (the campaign summary): one bar per strategy
// variant for each metric, one panel per metric.
#pragma once
#include <string>
#include <vector>

namespace hetlb::plot {

struct StrategyBar {
  std::string variant;         // e.g. "besteffort k=1 +virtual real"
  std::vector<double> values;  // one per metric (NaN: no value)
};

// Deprecated in 0.2 (unused by hetlb; goes in 0.3).
[[deprecated("unused; removed in hetlb 0.4")]] void render_strategy_bars(const std::vector<std::string>& metrics, const std::vector<StrategyBar>& bars,
                          const std::string& title, const std::string& path);

}  // namespace hetlb::plot
