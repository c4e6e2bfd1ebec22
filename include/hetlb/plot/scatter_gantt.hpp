// Gantt chart of a scatter, in the style of RR-4770's Figures 2-4: one column per processor in send
// order, idle / receiving (root: sending) / computing time, and the number of items on a second axis.
#pragma once
#include <string>

#include "hetlb/scatter/solve.hpp"

namespace hetlb::plot {

// Times are drawn in `unit` (e.g. "us"), `per_second` of them to a second: a plan of microseconds
// reads in us, not as ticks of 1e-06 s.
std::string scatter_gantt_script(const scatter::Result& result, const std::string& title, double per_second = 1.0,
                                 const std::string& unit = "s");
void render_scatter_gantt(const scatter::Result& result, const std::string& path, const std::string& title,
                          double per_second = 1.0, const std::string& unit = "s");

}  // namespace hetlb::plot
