// hetlb calibrate -n N -- [hetlb-calibrate options]: runs the MPI calibration program under mpirun
// (the program itself is build/bin/hetlb-calibrate, next to this binary).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "supervised_run.hpp"

namespace hetlb::cli {

namespace {
// Ranks per core above which the calibration is refused (without --force): the processes alone
// exhaust the machine (100,000 ranks on 2 cores took 40 s to end after SIGTERM), and compute timings
// are taken in turns of one rank per core, so each of many turns measures a busier machine.
constexpr long kMaxRanksPerCore = 64;

struct CalibrateOptions {
  int ranks = 2;
  bool force = false;
  std::string mpirun = "mpirun";
  std::vector<std::string> args;
};

[[noreturn]] void run_calibrate(const CalibrateOptions& o) {
  namespace fs = std::filesystem;
  const long cores = std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
  if (!o.force && o.ranks > kMaxRanksPerCore * cores)
    throw Error(fmt::format("-n {}: expected at most {} ranks ({} per core on this machine's {} cores; --force runs "
                            "more, or run mpirun with a host file and hetlb-calibrate across nodes)",
                            o.ranks, kMaxRanksPerCore * cores, kMaxRanksPerCore, cores));
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path program = self.parent_path() / "hetlb-calibrate";
  if (ec || !fs::exists(program))
    throw Error(fmt::format("{}: the calibration program is missing (make build builds it)", program.string()));
  // --mpirun is a command and its own options ("mpirun --mca btl self,tcp"), split at blanks.
  std::vector<std::string> argv;
  for (std::size_t at = 0; (at = o.mpirun.find_first_not_of(" \t", at)) != std::string::npos;) {
    const std::size_t end = o.mpirun.find_first_of(" \t", at);
    argv.push_back(o.mpirun.substr(at, end - at));
    at = end;
  }
  if (argv.empty()) throw Error("--mpirun \"\": expected the mpirun command");
  const std::string launcher = argv.front();
  if (::geteuid() == 0) argv.push_back("--allow-run-as-root");
  for (const std::string& a : std::vector<std::string>{"--oversubscribe", "-np", std::to_string(o.ranks), program.string()})
    argv.push_back(a);
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  int code = 0;
  try {  // a child, not exec: SIGTERM then ends mpirun and its ranks within seconds (supervised_run.hpp)
    code = run_supervised(argv);
  } catch (const Error& e) {  // "<launcher>: cannot start it (<reason>)": keep the reason
    const std::string what = e.what();
    const std::size_t open = what.rfind('(');
    const std::string reason = open == std::string::npos ? what : what.substr(open + 1, what.size() - open - 2);
    throw Error(fmt::format("--mpirun \"{}\": cannot start {} ({}){}", o.mpirun, launcher, reason,
                            launcher == "mpirun" ? "; is openmpi-bin installed? make deps installs it" : ""));
  }
  std::exit(code);
}
}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Measure a platform with N MPI ranks (runs hetlb-calibrate under mpirun; options after --)");
  sub->add_option("-n,--ranks", o->ranks, "number of MPI ranks")->check(CLI::Range(2, 100000));
  sub->add_option("--mpirun", o->mpirun, "the mpirun command");
  sub->add_flag("--force", o->force, "run more than 64 ranks per core of this machine");
  sub->add_option("args", o->args, "options of hetlb-calibrate (after --), e.g. --output platform.json");
  sub->callback([o] { run_calibrate(*o); });
}

}  // namespace hetlb::cli
