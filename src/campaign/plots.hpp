// gnuplot figures of a campaign's comparison: FILE (wins per variant and ratio), FILE-virtual (paired
// runs without/with virtual load), FILE-k (best effort's k) and FILE-lead (best effort's best against
// the best of Makhoul and simple), FILE-values (the compared metric per variant, mean and spread over
// seeds, for any campaign), each .png or .svg as FILE.
#pragma once
#include <string>
#include <vector>

#include "summary.hpp"

namespace hetlb::campaign {

// The five figure paths for `path`.
std::vector<std::string> plot_paths(const std::string& path);

// Draws the figures (the paired ones only when the spec has such pairs).
void plot_comparison(const Comparison& c, const std::string& path);

}  // namespace hetlb::campaign
