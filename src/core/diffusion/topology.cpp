// Built-in process topologies of the paper's experiments (line, torus, hypercube; Section
// "Configurations") plus ring and complete graph.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/choices_text.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {

namespace {
void require_nodes(const char* kind, int nodes, int minimum) {
  if (nodes < minimum)
    throw Error(fmt::format("topology {}: {} nodes; expected at least {}", kind, nodes, minimum));
}

void connect(Topology& t, int a, int b) {
  if (a == b) return;
  t.neighbours[a].push_back(b);
  t.neighbours[b].push_back(a);
}

Topology finish(Topology t) {
  for (auto& n : t.neighbours) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  return t;
}
}  // namespace

Topology line_topology(int nodes) {
  require_nodes("line", nodes, 2);
  Topology t{"line", std::vector<std::vector<int>>(nodes)};
  for (int i = 0; i + 1 < nodes; ++i) connect(t, i, i + 1);
  return finish(std::move(t));
}

Topology ring_topology(int nodes) {
  require_nodes("ring", nodes, 3);
  Topology t{"ring", std::vector<std::vector<int>>(nodes)};
  for (int i = 0; i < nodes; ++i) connect(t, i, (i + 1) % nodes);
  return finish(std::move(t));
}

Topology torus_topology(int nodes) {
  require_nodes("torus", nodes, 4);
  int rows = static_cast<int>(std::sqrt(static_cast<double>(nodes)));
  while (rows > 1 && nodes % rows != 0) --rows;
  if (rows < 2)
    throw Error(fmt::format("topology torus: {} nodes is prime; expected rows x cols with rows, cols >= 2",
                            nodes));
  const int cols = nodes / rows;
  Topology t{fmt::format("torus {}x{}", rows, cols), std::vector<std::vector<int>>(nodes)};
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int i = r * cols + c;
      connect(t, i, r * cols + (c + 1) % cols);
      connect(t, i, ((r + 1) % rows) * cols + c);
    }
  return finish(std::move(t));
}

Topology hypercube_topology(int nodes) {
  require_nodes("hypercube", nodes, 2);
  if ((nodes & (nodes - 1)) != 0)
    throw Error(fmt::format("topology hypercube: {} nodes; expected a power of 2", nodes));
  Topology t{"hypercube", std::vector<std::vector<int>>(nodes)};
  for (int i = 0; i < nodes; ++i)
    for (int bit = 1; bit < nodes; bit <<= 1)
      if ((i & bit) == 0) connect(t, i, i | bit);
  return finish(std::move(t));
}

Topology complete_topology(int nodes) {
  require_nodes("complete", nodes, 2);
  // Every node is every other's neighbour: N (N - 1) directed edges, 16.8 million at 4096 nodes.
  if (nodes > kMaxCompleteNodes)
    throw Error(fmt::format("topology complete: {} nodes; expected at most {} ({} directed edges would not fit)",
                            nodes, kMaxCompleteNodes, static_cast<long long>(nodes) * (nodes - 1)));
  Topology t{"complete", std::vector<std::vector<int>>(nodes)};
  for (int i = 0; i < nodes; ++i)
    for (int j = i + 1; j < nodes; ++j) connect(t, i, j);
  return finish(std::move(t));
}

const std::vector<TopologyShape>& builtin_topologies() {
  static const std::vector<TopologyShape> all{
      {"line", "each node linked to the next; 2 nodes or more", line_topology},
      {"ring", "a line closed on itself; 3 nodes or more", ring_topology},
      {"torus", "a 2-D torus, rows the largest divisor not above sqrt(N); N not prime, 4 or more", torus_topology},
      {"hypercube", "links between ids differing in one bit; N a power of 2", hypercube_topology},
      {"complete", "every pair linked; at most 4096 nodes", complete_topology},
  };
  return all;
}

bool is_builtin_topology(const std::string& name) {
  for (const TopologyShape& s : builtin_topologies())
    if (s.name == name) return true;
  return false;
}

static std::vector<std::string> builtin_topology_names() {
  std::vector<std::string> names;
  for (const TopologyShape& s : builtin_topologies()) names.push_back(s.name);
  return names;
}

std::string builtin_topology_choices() { return choices_text(builtin_topology_names()); }

std::string topology_help() {
  std::vector<std::string> names = builtin_topology_names();
  names.push_back("an edge-list file");
  return choices_text(names);
}

Topology make_topology(const std::string& spec, int nodes) {
  for (const TopologyShape& shape : builtin_topologies())
    if (shape.name == spec) {
      if (nodes <= 0) throw Error(fmt::format("topology {}: {} nodes; expected a positive node count", spec, nodes));
      return shape.build(nodes);
    }
  return read_edge_list(spec, nodes);
}

void validate_topology(const Topology& t, const std::string& origin) {
  const int n = t.size();
  if (n < 2) throw Error(fmt::format("{}: {} nodes; expected at least 2", origin, n));
  for (int i = 0; i < n; ++i)
    for (int j : t.neighbours[i]) {
      if (j < 0 || j >= n) throw Error(fmt::format("{}: node {} has neighbour {} outside 0..{}", origin, i, j, n - 1));
      if (j == i) throw Error(fmt::format("{}: node {} is its own neighbour; expected no self loops", origin, i));
      if (!std::binary_search(t.neighbours[j].begin(), t.neighbours[j].end(), i))
        throw Error(fmt::format("{}: asymmetric: edge {} {} without {} {}; expected every edge both ways",
                                origin, i, j, j, i));
    }
  std::vector<char> seen(n, 0);
  std::vector<int> stack{0};
  seen[0] = 1;
  int reached = 1;
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    for (int j : t.neighbours[i])
      if (!seen[j]) {
        seen[j] = 1;
        ++reached;
        stack.push_back(j);
      }
  }
  if (reached != n) {
    const int lost = static_cast<int>(std::find(seen.begin(), seen.end(), 0) - seen.begin());
    throw Error(fmt::format("{}: disconnected: node {} cannot be reached from node 0; expected a connected graph",
                            origin, lost));
  }
}

int diameter(const Topology& t) {
  const int n = t.size();
  int longest = 0;
  std::vector<int> distance(static_cast<std::size_t>(n)), queue(static_cast<std::size_t>(n));
  for (int source = 0; source < n; ++source) {  // one breadth-first search per node
    std::fill(distance.begin(), distance.end(), -1);
    distance[static_cast<std::size_t>(source)] = 0;
    std::size_t head = 0, tail = 0;
    queue[tail++] = source;
    while (head < tail) {
      const int i = queue[head++];
      for (int j : t.neighbours[static_cast<std::size_t>(i)])
        if (distance[static_cast<std::size_t>(j)] < 0) {
          distance[static_cast<std::size_t>(j)] = distance[static_cast<std::size_t>(i)] + 1;
          queue[tail++] = j;
        }
    }
    if (tail != static_cast<std::size_t>(n)) return -1;
    longest = std::max(longest, distance[queue[tail - 1]]);
  }
  return longest;
}

}  // namespace hetlb::diffusion
