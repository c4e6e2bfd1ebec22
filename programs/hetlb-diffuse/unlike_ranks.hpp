// hetlb-diffuse's options for unlike ranks and fixed work (--mode, --balance, --speeds, --speed-source,
// --slowdown, --work, --plot) and what they add to the report (time_to_solution, items_moved,
// ranks[].items, ranks[].speed, the iteration-time imbalance over time and its figure).
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include "emulation.hpp"
#include "number_checks.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "work_run.hpp"

namespace diffuse {

struct UnlikeRankSettings {
  std::string mode, balance, speeds, speed_source, plot;
  std::vector<std::string> slowdowns;
  long work = 0;
  double ratio = 0, stop_after = 0;
};

struct UnlikeRanks {
  std::vector<double> speeds;  // --speeds (empty: all alike)
  double own_host_speed = 0;         // --speed-source host: this rank's simulated host, items per second
  std::vector<double> host_speeds;   // --speed-source host: every rank's (share_host_speeds)
  std::vector<Slowdown> slowdowns;
  Emulation emulation;  // active with --speeds or --slowdown
  bool bulk_synchronous = false;
};

// Parses and checks the settings (throws hetlb::Error naming the option and value).
UnlikeRanks make_unlike_ranks(const UnlikeRankSettings& s, int rank, int size);
// Collective, after every rank's settings were accepted: --speed-source host gathers every rank's host
// speed (nothing otherwise).
void share_host_speeds(const UnlikeRankSettings& s, UnlikeRanks& u, MPI_Comm comm);
// The runtime's mode, balance and speeds for these settings.
void configure_mode(const UnlikeRankSettings& s, const UnlikeRanks& u, hetlb::mpi::DiffusionOptions& options);
// Collective: adds the fields to `j` (meaningful on rank 0) and, on rank 0, renders --plot.
void add_unlike_rank_report(nlohmann::json& j, hetlb::mpi::Diffusion& lb, const UnlikeRankSettings& s,
                            const UnlikeRanks& u, const WorkReport& work, MPI_Comm comm);

template <class O>
UnlikeRankSettings settings_of(const O& o) {
  return {o.mode, o.balance, o.speeds, o.speed_source, o.plot, o.slowdowns, o.work, o.ratio, o.stop_after};
}
template <class O>
UnlikeRanks make_unlike_ranks(const O& o, int rank, int size) {
  return make_unlike_ranks(settings_of(o), rank, size);
}
template <class O>
void share_host_speeds(const O& o, UnlikeRanks& u, MPI_Comm comm) {
  share_host_speeds(settings_of(o), u, comm);
}
template <class O>
void configure_mode(const O& o, const UnlikeRanks& u, hetlb::mpi::DiffusionOptions& options) {
  configure_mode(settings_of(o), u, options);
}
template <class O>
void add_unlike_rank_report(nlohmann::json& j, hetlb::mpi::Diffusion& lb, const O& o, const UnlikeRanks& u,
                            const WorkReport& work, MPI_Comm comm) {
  add_unlike_rank_report(j, lb, settings_of(o), u, work, comm);
}

template <class O>
void add_unlike_rank_options(CLI::App& app, O& o) {
  app.add_option("--mode", o.mode, "async (the papers' asynchronous program) or bsp (bulk-synchronous; the default "
                 "with --work)")->check(CLI::IsMember({"async", "bsp"}));
  app.add_option("--balance", o.balance,
                 "time (load / speed: speed-proportional shares) or load (equal load units, the papers' model)")
      ->check(CLI::IsMember({"load", "time"}))->capture_default_str();
  app.add_option("--speeds", o.speeds, "emulated relative speeds: 1,1,2,4 (one per rank) or a file (a list, or "
                 "hetlb-calibrate's platform JSON); rank r's kernel takes 1/s_r as long as the slowest's, by waiting");
  app.add_option("--speed-source", o.speed_source, "measured (each rank measures its own), given (the runtime is "
                 "told --speeds) or host (under SMPI: the runtime is told each rank's simulated host speed)")
      ->check(CLI::IsMember({"measured", "given", "host"}))->capture_default_str();
  app.add_option("--slowdown", o.slowdowns, "RANK:FACTOR:START:END: the rank's kernel costs FACTOR times more from "
                 "START to END s after start (repeatable)")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--work", o.work, "process every item this many times (wherever it is); the run ends when all "
                 "work is done, and reports time_to_solution")->check(hetlb::cli::whole_number<long>(0, 1000000000L));
  app.add_option("--plot", o.plot, "figure (.png or .svg) of the iteration-time imbalance over time (--work)");
}

}  // namespace diffuse
