// Load of every node over time (the figure behind `hetlb simulate diffusion --plot`).
#pragma once
#include <string>
#include <vector>

namespace hetlb::plot {

// dates[s] and loads[s][node]: one sample per date. Up to 32 nodes get a curve each; beyond, the
// minimum, mean and maximum over nodes are drawn. `average` is drawn as a reference line. With
// `time_imbalance` (one per sample), a second panel below draws it (max_i(x_i/s_i) / (sum x / sum s)).
std::string load_curves_script(const std::vector<double>& dates, const std::vector<std::vector<double>>& loads,
                               double average, const std::string& title,
                               const std::vector<double>& time_imbalance = {});
void render_load_curves(const std::vector<double>& dates, const std::vector<std::vector<double>>& loads,
                        double average, const std::string& title, const std::string& path,
                        const std::vector<double>& time_imbalance = {});

}  // namespace hetlb::plot
