// Runs the hetlb command line in a scratch folder and captures its exit code, stdout and stderr.
#pragma once
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace hetlb::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
  int err_lines() const {
    int n = 0;
    for (char c : err) n += c == '\n';
    return n;
  }
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline CommandResult run_hetlb(const std::string& args, const std::filesystem::path& cwd) {
  const std::string bin = std::string(HETLB_BINARY_DIR) + "/bin/hetlb";
  const std::string cmd = "cd '" + cwd.string() + "' && '" + bin + "' " + args + " > out.txt 2> err.txt";
  const int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(cwd / "out.txt");
  r.err = slurp(cwd / "err.txt");
  return r;
}

inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("hetlb-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace hetlb::testing
