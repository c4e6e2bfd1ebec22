// Initial load distributions of the paper's experiments (Section "Experimental contexts").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace hetlb::diffusion {

// spec: "single" (everything on node 0, an end of the line), "random" (uniform weights from `seed`,
// scaled to nodes * per_node), or the path of a file of loads. Integer loads are whole numbers that
// still sum exactly to nodes * per_node. Throws hetlb::Error on bad input.
std::vector<double> make_initial_load(const std::string& spec, int nodes, double per_node, bool integer,
                                      std::uint64_t seed);

// File: whitespace-separated non-negative loads, '#' comments, one per node (nodes <= 0: any count).
std::vector<double> read_initial_load(const std::string& path, int nodes, bool integer);

}  // namespace hetlb::diffusion
