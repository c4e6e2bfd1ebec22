// A child process that signals always end (supervised_run.hpp).
#include "supervised_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::cli {

namespace {

// Every process below `root` (from /proc's parent links), deepest last.
std::vector<pid_t> descendants(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    char state = 0;
    pid_t parent = 0;
    if (rest >> state >> parent) children.emplace(parent, static_cast<pid_t>(std::stol(name)));
  }
  std::vector<pid_t> out{root};
  for (std::size_t k = 0; k < out.size(); ++k) {
    const auto [from, to] = children.equal_range(out[k]);
    for (auto it = from; it != to; ++it) out.push_back(it->second);
  }
  out.erase(out.begin());
  return out;
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

int run_supervised(const std::vector<std::string>& argv, double grace_seconds) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  sigset_t watched, previous;
  sigemptyset(&watched);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD}) sigaddset(&watched, s);
  ::sigprocmask(SIG_BLOCK, &watched, &previous);  // taken with sigtimedwait below, never lost
  int report[2];  // the child's exec error, if any (closed by a successful exec)
  if (::pipe2(report, O_CLOEXEC) != 0) throw Error(fmt::format("{}: cannot start it ({})", argv[0], std::strerror(errno)));
  const pid_t child = ::fork();
  if (child < 0) throw Error(fmt::format("{}: cannot start it ({})", argv[0], std::strerror(errno)));
  if (child == 0) {
    ::setpgid(0, 0);
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    ::close(report[0]);
    ::execvp(cargv[0], cargv.data());
    const int error = errno;
    [[maybe_unused]] const auto written = ::write(report[1], &error, sizeof error);
    ::_exit(127);
  }
  ::setpgid(child, child);
  ::close(report[1]);
  int error = 0;
  const bool exec_failed = ::read(report[0], &error, sizeof error) == static_cast<ssize_t>(sizeof error);
  ::close(report[0]);
  if (exec_failed) {
    ::waitpid(child, nullptr, 0);
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    throw Error(fmt::format("{}: cannot start it ({})", argv[0], std::strerror(error)));
  }
  using Clock = std::chrono::steady_clock;
  int stopped_by = 0;
  Clock::time_point deadline{};
  for (;;) {
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) {
      ::sigprocmask(SIG_SETMASK, &previous, nullptr);
      return stopped_by ? 128 + stopped_by : exit_code(status);
    }
    const timespec tick{0, 100'000'000};
    const int s = ::sigtimedwait(&watched, nullptr, &tick);
    if ((s == SIGINT || s == SIGTERM || s == SIGHUP) && !stopped_by) {
      stopped_by = s;
      ::kill(-child, s);
      deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(grace_seconds));
    }
    if (stopped_by && Clock::now() >= deadline) {  // it ignored the signal: everything below it ends now
      for (const pid_t p : descendants(child)) ::kill(p, SIGKILL);
      ::kill(-child, SIGKILL);
      ::kill(child, SIGKILL);
      deadline = Clock::now() + std::chrono::hours(1);
    }
  }
}

}  // namespace hetlb::cli
