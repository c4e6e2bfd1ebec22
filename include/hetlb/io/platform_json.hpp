// The platform file (JSON):
//   {"name": "...", "items": 817101, "root": "dinadan",
//    "processors": [{"name": "leda", "count": 8, "compute": COST, "comm": COST, "transfer": COST}, ...]}
// COST is {"per_item": a}, {"latency": l, "per_item": a} or {"table": [[x, t], ...]}. `count: k`
// expands into k processors named leda-1 .. leda-k. Extra fields are allowed.
#pragma once
#include <string>

#include "hetlb/model/platform.hpp"

namespace hetlb::io {

// Parses `text`; errors are hetlb::Error with one line "<source>: <field path>: <what was expected>".
Platform parse_platform_json(const std::string& text, const std::string& source = "platform");
Platform load_platform_file(const std::string& path);

// Writes `platform` in the same format (one entry per processor, no `count`); reading it back gives
// the same platform.
std::string platform_to_json(const Platform& platform);

// One COST object of that format, on one line (e.g. a calibration's fit).
std::string cost_to_json(const CostFunction& cost);

// The processor-expansion limit (sum of counts), against absurd inputs: a million, far past any
// platform, and its expansion stays within a few hundred MB (ten million took over 2 GB).
inline constexpr long long kMaxProcessors = 1'000'000;

}  // namespace hetlb::io
