// hetlb calibrate -n N -- [hetlb-calibrate options]: runs the MPI calibration program under mpirun
// (the program itself is build/bin/hetlb-calibrate, next to this binary).
#include <unistd.h>

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
  std::vector<std::string> argv{o.mpirun};
  if (::geteuid() == 0) argv.push_back("--allow-run-as-root");
  for (const std::string& a : std::vector<std::string>{"--oversubscribe", "-np", std::to_string(o.ranks), program.string()})
    argv.push_back(a);
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  ::execvp(cargv[0], cargv.data());
  throw Error(fmt::format("{}: cannot start mpirun (is openmpi-bin installed? make deps installs it)", o.mpirun));
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
