// Unlike speeds: the cluster's hosts at given speeds (generated in the platform's XML, since SimGrid
// fixes a host's speed once it is loaded), and slowdowns through SimGrid's host speed profiles: a
// profile's value multiplies the host's peak speed from its date on, so a slowdown by F from START to
// END is the profile "START 1/F", "END 1" (kernel::profile::ProfileBuilder::from_string, not repeated).
#include "unlike_speeds.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <simgrid/kernel/ProfileBuilder.hpp>

#include "diffusion_world.hpp"
#include "hetlb/error.hpp"
#include "hetlb/sim/grid5000.hpp"

namespace hetlb::sim::detail {

std::vector<double> cluster_speeds(const DiffusionConfig& c, int nodes) {
  if (c.speeds.empty()) return {};
  if (c.platform != "cluster")
    throw Error(fmt::format("--speeds {} with --platform {}: expected --platform cluster (grid-real and platform files "
                            "give their hosts' own speeds)",
                            c.speeds, c.platform));
  std::vector<double> relative;
  if (c.speeds == "grid-real") {
    if (nodes > grid5000::total_hosts())
      throw Error(fmt::format("--speeds grid-real: {} nodes; expected at most {} (the Grid'5000 subset's hosts)", nodes,
                              grid5000::total_hosts()));
    relative = grid5000::host_speeds(nodes);
    const double mean = std::accumulate(relative.begin(), relative.end(), 0.0) / nodes;
    for (double& s : relative) s /= mean;
  } else {
    relative = diffusion::read_speeds(c.speeds, nodes);
  }
  std::vector<double> flops;
  for (double s : relative) {
    const double f = s * 1e9;
    if (!std::isfinite(f) || !(f > 0))
      throw Error(fmt::format("--speeds {}: speed {} is {} flop/s; expected a finite relative speed > 0", c.speeds, s, f));
    flops.push_back(f);
  }
  return flops;
}

double apply_slowdowns(const std::vector<diffusion::Slowdown>& slowdowns,
                       const std::vector<simgrid::s4u::Host*>& node_hosts) {
  diffusion::check_slowdowns(slowdowns, static_cast<int>(node_hosts.size()));
  std::map<int, std::vector<const diffusion::Slowdown*>> per_node;
  double last = 0;
  for (const auto& s : slowdowns) {
    per_node[s.node].push_back(&s);
    last = std::max(last, s.end);
  }
  for (auto& [node, list] : per_node) {
    std::sort(list.begin(), list.end(), [](const auto* a, const auto* b) { return a->start < b->start; });
    std::string text;
    for (std::size_t k = 0; k < list.size(); ++k) {
      text += fmt::format("{:.17g} {:.17g}\n", list[k]->start, 1.0 / list[k]->factor);
      if (k + 1 == list.size() || list[k + 1]->start > list[k]->end) text += fmt::format("{:.17g} 1\n", list[k]->end);
    }
    node_hosts[static_cast<std::size_t>(node)]->set_speed_profile(
        simgrid::kernel::profile::ProfileBuilder::from_string(fmt::format("slowdown-{}", node), text, -1));
  }
  return last;
}

// Balancing by time, a node's own speed change is news to its balancing activity (which may be parked
// until a message arrives): it is woken at each date a slowdown starts or ends, and decides at its
// next period on the new speed.
void speed_change_activity(World& w) {
  std::vector<std::pair<double, int>> changes;
  for (const auto& s : w.config.slowdowns) {
    changes.emplace_back(s.start, s.node);
    changes.emplace_back(s.end, s.node);
  }
  std::sort(changes.begin(), changes.end());
  for (const auto& [date, node] : changes) {
    const double left = date - simgrid::s4u::Engine::get_clock();
    if (left > 0) simgrid::s4u::this_actor::sleep_for(left);
    if (w.finished) return;
    Node& n = w.nodes[static_cast<std::size_t>(node)];
    n.news = true;
    if (n.parked) {
      n.parked = false;
      n.balancer->resume();
    }
  }
}

}  // namespace hetlb::sim::detail
