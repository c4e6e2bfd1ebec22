#include "gantt.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/plot/scatter_gantt.hpp"

namespace seismic {

void render_measured_gantt(const RunReport& report, const std::string& path) {
  std::vector<int> order = report.send_order;
  if (order.empty()) {  // MPI_Scatter: the implementation's order is unknown; rank order, root last
    for (const RankTimes& t : report.ranks)
      if (t.rank != report.root) order.push_back(t.rank);
    order.push_back(report.root);
  }
  hetlb::scatter::Result r;
  double previous = 0;
  for (int rank : order) {
    const RankTimes& t = report.ranks[static_cast<std::size_t>(rank)];
    const bool root = rank == report.root;
    r.problem.names.push_back(fmt::format("rank {}{}", rank, root ? " (root)" : ""));
    r.plan.items.push_back(t.items);
    hetlb::scatter::ShareTiming share;
    share.comm_start = root ? 0.0 : std::min(previous, t.receive);
    share.comm_end = t.receive;
    share.finish = t.finish;
    if (!root) previous = std::max(previous, t.receive);
    r.schedule.shares.push_back(share);
  }
  r.schedule.makespan = report.makespan;
  const std::string title =
      fmt::format("hetlb-seismic, mode {}: {} rays, measured makespan {:.3f} s", report.mode, report.rays, report.makespan);
  hetlb::plot::render_scatter_gantt(r, path, title);
}

}  // namespace seismic
