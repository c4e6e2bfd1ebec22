// Load of every node over time (the figure behind `hetlb simulate diffusion --plot`).
#pragma once
#include <string>
#include <vector>

namespace hetlb::plot {

// dates[s] and loads[s][node]: one sample per date. Up to 32 nodes get a curve each; beyond, the
// minimum, mean and maximum over nodes are drawn. `average` is drawn as a reference line.
std::string load_curves_script(const std::vector<double>& dates, const std::vector<std::vector<double>>& loads,
                               double average, const std::string& title);
void render_load_curves(const std::vector<double>& dates, const std::vector<std::vector<double>>& loads,
                        double average, const std::string& title, const std::string& path);

}  // namespace hetlb::plot
