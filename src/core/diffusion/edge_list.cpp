// Arbitrary process topologies from an edge-list file, validated (symmetric, connected).
#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"

namespace hetlb::diffusion {

Topology read_edge_list(const std::string& path, int nodes) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(fmt::format("topology \"{}\": {}; expected line, ring, torus, hypercube, complete or an "
                            "edge-list file",
                            path, why));
  std::ifstream in(path);
  std::vector<std::pair<int, int>> edges;
  std::string line;
  int max_id = -1;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    long long u = 0, v = 0;
    std::string rest;
    if (!(fields >> u)) {
      if (line.find_first_not_of(" \t\r") != std::string::npos)
        throw Error(fmt::format("{}:{}: \"{}\"; expected two node ids \"u v\"", path, lineno, line));
      continue;
    }
    if (!(fields >> v) || (fields >> rest))
      throw Error(fmt::format("{}:{}: \"{}\"; expected two node ids \"u v\"", path, lineno, line));
    if (u < 0 || v < 0 || u > 1000000 || v > 1000000)
      throw Error(fmt::format("{}:{}: node id out of range; expected 0..1000000", path, lineno));
    if (u == v) throw Error(fmt::format("{}:{}: self loop on node {}; expected distinct nodes", path, lineno, u));
    edges.emplace_back(static_cast<int>(u), static_cast<int>(v));
    max_id = std::max<int>(max_id, static_cast<int>(std::max(u, v)));
  }
  if (edges.empty()) throw Error(fmt::format("{}: no edges; expected lines \"u v\"", path));
  if (nodes > 0 && max_id >= nodes)
    throw Error(fmt::format("{}: node id {} does not fit {} nodes; expected ids 0..{}", path, max_id, nodes,
                            nodes - 1));
  const int n = nodes > 0 ? nodes : max_id + 1;
  Topology t{path, std::vector<std::vector<int>>(n)};
  for (const auto& [u, v] : edges) t.neighbours[u].push_back(v);
  for (int i = 0; i < n; ++i) {
    auto& nb = t.neighbours[i];
    std::sort(nb.begin(), nb.end());
    if (const auto dup = std::adjacent_find(nb.begin(), nb.end()); dup != nb.end())
      throw Error(fmt::format("{}: edge {} {} listed twice; expected each directed edge once", path, i, *dup));
  }
  validate_topology(t, path);
  return t;
}

}  // namespace hetlb::diffusion
