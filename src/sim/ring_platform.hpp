// A processor ring as a SimGrid platform (private to hetlb_sim): one host per processor, one private
// link per ring direction whose bandwidth moves one item (1 byte) in the link's cost.
#pragma once
#include <string>
#include <vector>

#include "hetlb/ring/problem.hpp"

namespace hetlb::sim::detail {

// Network settings under which a lone transfer takes exactly size / bandwidth (no TCP factors, no
// reverse traffic).
const std::vector<std::string>& exact_ring_network();

// Hosts "p0".."p{n-1}" of speed speeds[i] flop/s (1 when `speeds` is empty), links "s{i}" (P_i to its
// successor) and, on bidirectional rings, "r{i}" (P_i to its predecessor), no latency.
std::string ring_platform_xml(const ring::Ring& r, const std::vector<double>& speeds = {});

}  // namespace hetlb::sim::detail
