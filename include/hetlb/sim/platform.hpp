// Platforms for the SimGrid simulations: the paper's built-in shapes as SimGrid XML, and the
// deterministic mapping of process nodes onto the hosts of any platform.
#pragma once
#include <string>
#include <vector>

namespace hetlb::sim {

// Homogeneous cluster of the paper (Section "Platforms"): `hosts` hosts "node-0".. of 1 Gflop/s, each
// with a private split-duplex link of 125 MB/s and 50 us to the cluster's router.
std::string cluster_platform_xml(int hosts);
// The same cluster with host i at speeds[i] flop/s (each host with its own link, same routes).
std::string cluster_platform_xml(const std::vector<double>& speeds);

// The study's platforms by name: "cluster" (above), "grid" (the Grid'5000 subset, grid5000.hpp) or
// "grid-real" (the same hosts with their real speeds and links).
bool is_study_platform(const std::string& name);
std::string study_platform_xml(const std::string& name, int hosts);
// Their host names in node order (natural order): node i of a simulation runs on the i-th.
std::vector<std::string> study_host_names(const std::string& name, int hosts);

// Natural order: runs of digits compare as numbers ("node-2" < "node-10"), then plain text.
bool natural_less(const std::string& a, const std::string& b);

// Node i runs on sorted_hosts[i], hosts sorted in natural order of their names: one node per host;
// throws hetlb::Error when there are fewer hosts than nodes.
std::vector<int> map_nodes_to_hosts(int nodes, int hosts);

}  // namespace hetlb::sim
