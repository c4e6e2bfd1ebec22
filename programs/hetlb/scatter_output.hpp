// Printing of scatter plans: table, JSON (the documented shape) and CSV.
#pragma once
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "hetlb/io/scatter_json.hpp"
#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::cli {

using io::scatter_json;  // the JSON shape lives in hetlb_io (shared with the Python binding)
void print_scatter(std::ostream& out, const Platform& platform, const scatter::Result& result,
                   const std::string& format);
// The same with per-item weights: each share's work, and its range (contiguous) or the assignment (any).
void print_weighted_scatter(std::ostream& out, const Platform& platform, const scatter::WeightedResult& result,
                            const std::string& format);
// "platform NAME" for the tables' first line, "platform" when the file names none.
std::string platform_heading(const Platform& platform);

}  // namespace hetlb::cli
