// Feasibility for affine links (latencies) in decreasing-bandwidth order. For a trial makespan T,
// an item moved from the next used processor j to an earlier used processor i below its capacity
// never delays anybody (c_i <= c_j, and emptying j also saves its latency), so some optimal
// distribution uses a set of processors all at their greedy capacity except the last one used.
// Which processors to use is a choice (a latency may not pay for a slow processor): the choices
// are explored as a Pareto frontier of (root's sending date, items placed), pruned by dominance.
#include <algorithm>
#include <limits>

#include "feasibility_probes.hpp"

namespace hetlb::scatter::detail {

void FrontierProbe::unwind(int node, std::vector<Count>* items) const {
  for (; node > 0; node = nodes_[static_cast<std::size_t>(node)].parent) {
    const Node& nd = nodes_[static_cast<std::size_t>(node)];
    (*items)[static_cast<std::size_t>(nd.proc)] = nd.take;
  }
}

Probe FrontierProbe::operator()(double T, std::vector<Count>* items) {
  const std::size_t p = pb_.size();
  const Count n = pb_.items;
  const CostFunction& root = pb_.compute.back();
  nodes_.assign(1, Node{0.0, 0, -1, -1, 0});
  std::vector<int> frontier{0}, next;
  double best = std::numeric_limits<double>::infinity();
  int best_node = 0, best_proc = -1;
  Count best_x = 0;
  auto finish_at = [&](int node, int proc, Count x, double value) {
    if (value < best) {
      best = value;
      best_node = node;
      best_proc = proc;
      best_x = x;
    }
  };
  for (std::size_t i = 0; i + 1 < p; ++i) {
    next = frontier;  // skipping processor i keeps every state
    for (int s : frontier) {
      const Node st = nodes_[static_cast<std::size_t>(s)];
      const Count left = n - st.placed;
      if (left == 0) continue;
      const Count cap = capacity(pb_.comm[i], pb_.compute[i], st.sent, T, left);
      if (cap < 1) continue;
      // Processor i is the last one used, with x in [1, cap] items.
      const auto [v, x] = best_split(st.sent, pb_.comm[i], 1, cap, root, left);
      finish_at(s, static_cast<int>(i), x, v);
      // Processor i at capacity, more processors may follow.
      if (cap < left) {
        nodes_.push_back(Node{st.sent + pb_.comm[i](cap), st.placed + cap, s, static_cast<int>(i), cap});
        next.push_back(static_cast<int>(nodes_.size() - 1));
      }
    }
    // Pareto pruning: by sending date, keep only states placing strictly more items.
    std::sort(next.begin(), next.end(), [&](int a, int b) {
      const Node &x = nodes_[static_cast<std::size_t>(a)], &y = nodes_[static_cast<std::size_t>(b)];
      return x.sent != y.sent ? x.sent < y.sent : x.placed > y.placed;
    });
    frontier.clear();
    Count most = -1;
    for (int s : next)
      if (nodes_[static_cast<std::size_t>(s)].placed > most) {
        most = nodes_[static_cast<std::size_t>(s)].placed;
        frontier.push_back(s);
      }
    if (frontier.size() > max_states_) return Probe::TooLarge;
  }
  for (int s : frontier) {  // the root takes the rest after the last used processor
    const Node& st = nodes_[static_cast<std::size_t>(s)];
    finish_at(s, -1, 0, st.sent + root(n - st.placed));
  }
  if (!(best <= T)) return Probe::Infeasible;
  if (items) {
    items->assign(p, 0);
    unwind(best_node, items);
    if (best_proc >= 0) (*items)[static_cast<std::size_t>(best_proc)] = best_x;
    Count placed = 0;
    for (std::size_t i = 0; i + 1 < p; ++i) placed += (*items)[i];
    items->back() = n - placed;
  }
  return Probe::Feasible;
}

}  // namespace hetlb::scatter::detail
