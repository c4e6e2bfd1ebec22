// Runs the hetlb command line in a scratch folder and captures its exit code, stdout and stderr.
#pragma once
#include <gtest/gtest.h>
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

// Bad input: a non-zero exit, nothing on stdout, exactly one "hetlb: error: " line naming `fragment`.
inline void expect_refused_in_one_line(const CommandResult& r, const std::string& fragment, const std::string& what) {
  EXPECT_NE(r.exit_code, 0) << what;
  EXPECT_EQ(r.out, "") << what;
  EXPECT_EQ(r.err.rfind("hetlb: error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

inline std::filesystem::path scratch_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("hetlb-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace hetlb::testing
