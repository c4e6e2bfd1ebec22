// Gantt chart of a ring redistribution: one row per processor, one box per transfer on its sender's
// row, coloured by direction (towards the successor or the predecessor).
#pragma once
#include <string>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::plot {

// The gnuplot script (terminal for `path`, output placeholder). At most `max_boxes` transfers are
// drawn (the earliest ones); the title says so when some are left out.
std::string ring_gantt_script(const ring::Ring& ring, const ring::Plan& plan, const std::string& title,
                              const std::string& path, std::size_t max_boxes = 20000);
void render_ring_gantt(const ring::Ring& ring, const ring::Plan& plan, const std::string& path, const std::string& title);

}  // namespace hetlb::plot
