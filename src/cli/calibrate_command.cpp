// hetlb calibrate -n N -- [hetlb-calibrate options]: runs the MPI calibration program under mpirun
// (the program itself is build/bin/hetlb-calibrate, next to this binary).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "hetlb/error.hpp"

namespace hetlb::cli {

namespace {
struct Options {
  int ranks = 2;
  std::string mpirun = "mpirun";
  std::vector<std::string> args;
};

[[noreturn]] void run(const Options& o) {
  namespace fs = std::filesystem;
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
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  ::execvp(cargv[0], cargv.data());
  const int err = errno;
  throw Error(fmt::format("--mpirun \"{}\": cannot start {} ({}{})", o.mpirun, launcher, std::strerror(err),
                          err == ENOENT && launcher == "mpirun" ? "; is openmpi-bin installed? make deps installs it" : ""));
}
}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Measure a platform with N MPI ranks (runs hetlb-calibrate under mpirun; options after --)");
  sub->add_option("-n,--ranks", o->ranks, "number of MPI ranks")->check(CLI::Range(2, 100000));
  sub->add_option("--mpirun", o->mpirun, "the mpirun command");
  sub->add_option("args", o->args, "options of hetlb-calibrate (after --), e.g. --output platform.json");
  sub->callback([o] { run(*o); });
}

}  // namespace hetlb::cli
