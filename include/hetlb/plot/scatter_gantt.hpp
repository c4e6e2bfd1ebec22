// Gantt chart of a scatter, in the style of RR-4770's Figures 2-4: one column per processor in send
// order, idle / receiving (root: sending) / computing time, and the number of items on a second axis.
#pragma once
#include <string>

#include "hetlb/scatter/solve.hpp"

namespace hetlb::plot {

std::string scatter_gantt_script(const scatter::Result& result, const std::string& title);
void render_scatter_gantt(const scatter::Result& result, const std::string& path, const std::string& title);

}  // namespace hetlb::plot
