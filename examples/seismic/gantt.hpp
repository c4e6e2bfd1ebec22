// The measured Gantt chart of a run, drawn like RR-4770's Figures 2-4 (hetlb_plot's scatter chart):
// one column per rank in send order (root last), receiving then computing.
#pragma once
#include <string>

#include "report.hpp"

namespace seismic {

// Rank 0 checks --gantt before the run: a .png or .svg name whose folder accepts a new file (a file
// is created there and removed: /proc passes access() as root but refuses files). Throws hetlb::Error.
void check_gantt_path(const std::string& path);

// Reception of rank i is drawn from the previous rank's reception end (the root's port is single) to
// its own; the root's column shows its sending. Throws hetlb::Error when gnuplot fails (SIGPIPE is
// ignored meanwhile: a gnuplot that ends early is an error, not the death of rank 0).
void render_measured_gantt(const RunReport& report, const std::string& path);

}  // namespace seismic
