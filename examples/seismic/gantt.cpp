#include "gantt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "hetlb/plot/scatter_gantt.hpp"

namespace seismic {

void check_gantt_path(const std::string& path) {
  hetlb::plot::check_figure_path("--gantt", path);
  const auto target = hetlb::output_target(path);
  const std::string probe = (target.parent_path() / fmt::format(".{}.{}.probe", target.filename().string(), ::getpid())).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw hetlb::Error(fmt::format("--gantt \"{}\": cannot create a file in its folder ({}); expected a writable path",
                                   path, std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {
// SIGPIPE ignored for the lifetime of this object (writing to a gnuplot that has ended fails instead).
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~IgnoreSigpipe() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction previous_ {};
};
}  // namespace

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
  const IgnoreSigpipe ignore;
  hetlb::plot::render_scatter_gantt(r, path, title);
}

}  // namespace seismic
