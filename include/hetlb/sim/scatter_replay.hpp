// Replay of a scatter plan on SimGrid (RR-4770's model: the root sends each share in turn through a
// single port, each processor computes once its share has arrived, the root computes last).
#pragma once
#include <string>
#include <vector>

#include "hetlb/model/cost_function.hpp"
#include "hetlb/scatter/problem.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::sim {

struct ReplayedShare {
  std::string name;
  Count items = 0;
  double comm_start = 0, comm_end = 0, finish = 0;  // simulated
};

struct ScatterReplay {
  std::vector<ReplayedShare> shares;  // send order, root last
  double makespan = 0;
  double wall_seconds = 0;
};

// The SimGrid platform that reproduces `problem`'s costs: one host per processor at 1 flop/s
// (computing x items = Tcomp(x) flops) and, for each non-root processor, a private link from the
// root with latency = Tcomm's latency and bandwidth = 1 / per-item time (1 byte per item). Table
// communication costs cannot be expressed so: hetlb::Error.
std::string scatter_platform_xml(const scatter::Problem& problem);

// Runs the plan `items` (send order) under SimGrid's CM02 model without TCP factors, so that an
// uncontended replay reproduces equation (1). One engine per process.
ScatterReplay replay_scatter(const scatter::Problem& problem, const std::vector<Count>& items);

struct XmlScatter {
  scatter::Result plan;  // planned on the cost models derived from the XML platform
  ScatterReplay replay;
};

// A SimGrid XML platform as a scatter platform: every host (natural name order) computes an item in
// flops_per_item / speed seconds and receives it from the root (`root`, default the first host) in
// route latency + bytes_per_item / (smallest bandwidth on the route). The plan of `request` is then
// replayed on the XML platform itself. One engine per process.
XmlScatter replay_scatter_xml(const std::string& path, const std::string& root, double flops_per_item,
                              double bytes_per_item, const scatter::Request& request);

}  // namespace hetlb::sim
