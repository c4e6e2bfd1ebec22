// Platforms for the SimGrid simulations: the paper's built-in shapes as SimGrid XML, and the
// deterministic mapping of process nodes onto the hosts of any platform.
#pragma once
#include <string>
#include <vector>

namespace hetlb::sim {

// Homogeneous cluster of the paper (Section "Platforms"): `hosts` hosts "node-0".. of 1 Gflop/s, each
// with a private split-duplex link of 125 MB/s and 50 us to the cluster's router.
std::string cluster_platform_xml(int hosts);

// Multi-site grid: `sites` such clusters (hosts split as evenly as possible, first sites larger),
// hosts "site-S-node-I", each site joined to the others through its own 2.25 GB/s, 500 us uplink.
std::string grid_platform_xml(int hosts, int sites);

// Sites used by `--platform grid`: 4, or fewer when there are fewer than 4 hosts.
int default_grid_sites(int hosts);

// Natural order: runs of digits compare as numbers ("node-2" < "node-10"), then plain text.
bool natural_less(const std::string& a, const std::string& b);

// Node i runs on sorted_hosts[i mod H], hosts sorted in natural order of their names: deterministic,
// one node per host when there are enough hosts, round-robin otherwise.
std::vector<int> map_nodes_to_hosts(int nodes, int hosts);

}  // namespace hetlb::sim
