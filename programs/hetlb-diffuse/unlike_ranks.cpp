// Unlike ranks and fixed work in hetlb-diffuse (unlike_ranks.hpp).
#include "unlike_ranks.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/plot/gnuplot.hpp"

#ifdef HETLB_SMPI
#include <simgrid/host.h>
#endif

namespace diffuse {

namespace {
// The imbalance curve: at most `most` points (every k-th iteration, the last one kept).
nlohmann::json curve(const WorkReport& w, std::size_t most) {
  nlohmann::json points = nlohmann::json::array();
  const std::size_t n = w.dates.size();
  const std::size_t step = std::max<std::size_t>(1, (n + most - 1) / most);
  for (std::size_t k = 0; k < n; k += step) points.push_back({w.dates[k], w.imbalance[k]});
  if (n > 0 && (n - 1) % step != 0) points.push_back({w.dates[n - 1], w.imbalance[n - 1]});
  return points;
}

void render_imbalance(const WorkReport& w, const std::string& title, const std::string& path) {
  std::string s = "set terminal " + hetlb::plot::terminal_for(path) + "\n";
  s += "set output " + std::string(hetlb::plot::kOutputPlaceholder) + "\n";
  s += "set title " + hetlb::plot::quote(title) + "\n";
  s += "set xlabel 'time (s)'\nset ylabel 'iteration time, max / mean over ranks'\nset grid\nset key top right\n";
  s += "$imbalance << EOD\n";
  for (std::size_t k = 0; k < w.dates.size(); ++k) s += fmt::format("{:.9g} {:.9g}\n", w.dates[k], w.imbalance[k]);
  s += "EOD\n";
  s += "plot $imbalance using 1:2 with steps lw 2 title 'iteration-time imbalance', "
       "1 with lines dt 2 lc rgb '#000000' title 'balanced'\n";
  hetlb::plot::render(s, path);
}
}  // namespace

UnlikeRanks make_unlike_ranks(const UnlikeRankSettings& s, int rank, int size) {
  UnlikeRanks u;
  if (s.work > 0 && s.mode == "async")
    throw hetlb::Error("--work with --mode async: expected --mode bsp (fixed work is counted at iteration "
                       "boundaries, where no item is in flight)");
  if (s.work > 0 && s.stop_after > 0) throw hetlb::Error("--work with --stop-after: expected one way to end the run");
  if (!s.plot.empty() && s.work == 0) throw hetlb::Error("--plot " + s.plot + ": expected --work (the figure is "
                                                         "the iteration-time imbalance of a --work run)");
  hetlb::plot::check_figure_path("--plot", s.plot);
  if (!s.speeds.empty()) u.speeds = parse_speeds(s.speeds, size);
  if (s.speed_source == "given" && u.speeds.empty())
    throw hetlb::Error("--speed-source given: expected --speeds (the speeds the runtime is told)");
  if (s.speed_source == "host") {
#ifdef HETLB_SMPI
    if (!s.speeds.empty())
      throw hetlb::Error("--speed-source host with --speeds: expected one of them (host: the simulated hosts' "
                         "speeds; --speeds: emulated ones)");
    // The simulated host's flop rate, in items per second: the synthetic kernel charges ratio x 1e6 flops.
    u.own_host_speed = sg_host_get_speed(sg_host_self()) / (s.ratio * 1e6);
    if (!(u.own_host_speed > 0) || !std::isfinite(u.own_host_speed))
      throw hetlb::Error(fmt::format("--speed-source host: host {} has speed {} flop/s; expected a finite speed > 0",
                                     sg_host_get_name(sg_host_self()), sg_host_get_speed(sg_host_self())));
#else
    throw hetlb::Error("--speed-source host: expected the SMPI build (libhetlb-diffuse-smpi.so under smpirun), "
                       "which reads each rank's simulated host speed; here use measured or given");
#endif
  }
  for (const std::string& text : s.slowdowns) u.slowdowns.push_back(parse_slowdown(text, size));
  check_slowdowns(u.slowdowns);
  if (!u.speeds.empty() || !u.slowdowns.empty()) {
    const std::vector<double> speeds = u.speeds.empty() ? std::vector<double>(static_cast<std::size_t>(size), 1.0) : u.speeds;
    u.emulation = Emulation(speeds, u.slowdowns, rank, s.ratio * 1e-3);  // the simulator's unit: ratio x 1 ms
  }
  u.bulk_synchronous = s.mode == "bsp" || (s.mode.empty() && s.work > 0);
  return u;
}

void share_host_speeds(const UnlikeRankSettings& s, UnlikeRanks& u, MPI_Comm comm) {
  if (s.speed_source != "host") return;
  int size = 0;
  MPI_Comm_size(comm, &size);
  u.host_speeds.assign(static_cast<std::size_t>(size), 0.0);
  MPI_Allgather(&u.own_host_speed, 1, MPI_DOUBLE, u.host_speeds.data(), 1, MPI_DOUBLE, comm);
}

void configure_mode(const UnlikeRankSettings& s, const UnlikeRanks& u, hetlb::mpi::DiffusionOptions& options) {
  options.bulk_synchronous = u.bulk_synchronous;
  options.wait_for_load = !u.bulk_synchronous;  // the simulator's node: idle while holding nothing
  options.end_on_convergence = s.work == 0;     // --work: the work decides, balancing follows the slowdowns
  options.balance = s.balance;
  if (s.speed_source == "given") options.speeds = u.speeds;
  if (s.speed_source == "host") options.speeds = u.host_speeds;
}

void add_unlike_rank_report(nlohmann::json& j, hetlb::mpi::Diffusion& lb, const UnlikeRankSettings& s,
                            const UnlikeRanks& u, const WorkReport& work, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const double mine[2] = {static_cast<double>(lb.size()), lb.speed()};
  std::vector<double> all(2 * static_cast<std::size_t>(size));
  MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, comm);
  if (rank != 0) return;
  j["mode"] = u.bulk_synchronous ? "bsp" : "async";
  j["balance"] = s.balance;
  j["speed_source"] = s.speed_source;
  nlohmann::json ranks = nlohmann::json::array();
  for (int r = 0; r < size; ++r) {
    nlohmann::json e = {{"rank", r}, {"items", all[2 * static_cast<std::size_t>(r)]}};
    const double speed = all[2 * static_cast<std::size_t>(r) + 1];
    e["speed"] = speed > 0 ? nlohmann::json(speed) : nlohmann::json(nullptr);
    if (!u.speeds.empty()) e["emulated_speed"] = u.speeds[static_cast<std::size_t>(r)];
    ranks.push_back(e);
  }
  j["ranks"] = ranks;
  const double moved = j.value("data_transfer_amount", 0.0) * j.value("initial_total_load", 0.0);
  j["items_moved"] = std::round(moved);
  if (s.work > 0) {
    j["work"] = s.work;
    j["time_to_solution"] = work.time_to_solution;
    j["work_iterations"] = work.iterations;
    j["imbalance"] = curve(work, 500);
    if (!s.plot.empty())
      render_imbalance(work, fmt::format("hetlb-diffuse: {} ranks, balance by {}, --work {}", size, s.balance, s.work),
                       s.plot);
  } else {
    j["time_to_solution"] = nullptr;
  }
}

}  // namespace diffuse
