// Process topologies: which nodes exchange load. Undirected, connected, neighbours listed in
// increasing node order.
#pragma once
#include <string>
#include <vector>

namespace hetlb::diffusion {

// The largest complete graph make_topology builds (its N (N - 1) directed edges).
inline constexpr int kMaxCompleteNodes = 4096;

struct Topology {
  std::string name;                          // e.g. "torus 4x4", "line", "edges.txt"
  std::vector<std::vector<int>> neighbours;  // neighbours[i]: sorted, no duplicates, no i
  int size() const { return static_cast<int>(neighbours.size()); }
};

// The built-in topologies, in the order listed in help texts: everything that lists, checks or builds a
// topology by name reads this table (topology.cpp: one line per shape).
struct TopologyShape {
  std::string name;   // as given to --topology and in spec files
  std::string summary;  // the shape and which node counts it takes
  Topology (*build)(int nodes);
};
const std::vector<TopologyShape>& builtin_topologies();
bool is_builtin_topology(const std::string& name);
// "line, ring, torus, hypercube or complete".
std::string builtin_topology_choices();
// "line, ring, torus, hypercube, complete or an edge-list file": for --topology and spec files.
std::string topology_help();

// spec: a built-in name (builtin_topologies) or the path of an edge-list file. nodes <= 0 is
// allowed only for a file (the file then fixes the node count). Throws hetlb::Error when the node
// count does not fit (hypercube of 12, torus of a prime) or the file is invalid.
Topology make_topology(const std::string& spec, int nodes);

Topology line_topology(int nodes);
Topology ring_topology(int nodes);
Topology torus_topology(int nodes);  // rows = largest divisor of nodes not above sqrt(nodes), >= 2
Topology hypercube_topology(int nodes);
Topology complete_topology(int nodes);

// The longest shortest path between two nodes (hops; 0 for one node, -1 if disconnected). Diffusion
// needs a number of balancing iterations that grows with it (the campaign runs small ones first).
int diameter(const Topology& t);

// Edge-list file: one "u v" per line (0-based node ids, u lists v as a neighbour), '#' comments.
// Each edge must appear in both directions; no self loops, no duplicates, connected.
Topology read_edge_list(const std::string& path, int nodes);

// Throws hetlb::Error naming `origin` unless the topology is symmetric, loop-free and connected.
void validate_topology(const Topology& topology, const std::string& origin);

}  // namespace hetlb::diffusion
