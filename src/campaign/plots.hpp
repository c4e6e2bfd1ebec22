// gnuplot figures of a campaign's comparison: FILE (wins per variant and ratio), FILE-virtual (paired
// runs without/with virtual load) and FILE-k (best effort's k), each .png or .svg as FILE.
#pragma once
#include <string>
#include <vector>

#include "summary.hpp"

namespace hetlb::campaign {

// The three figure paths for `path`.
std::vector<std::string> plot_paths(const std::string& path);

// Draws the figures (the paired ones only when the spec has such pairs).
void plot_comparison(const Comparison& c, const std::string& path);

}  // namespace hetlb::campaign
