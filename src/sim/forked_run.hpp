// Test support: SimGrid allows one engine per process, so each simulation of a test runs in a forked
// child; the child's report (any text, or "error <message>") comes back through a pipe.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <exception>
#include <stdexcept>
#include <string>

namespace hetlb::sim::testing {

// Runs `body` in a child process; returns what it returned, "error <what>" if it threw, or
// "crashed" if the child died.
template <class Body>
std::string run_in_child(Body body) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    std::string out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("error ") + e.what();
    }
    const char* p = out.data();
    for (std::size_t left = out.size(); left > 0;) {
      const ssize_t w = write(fd[1], p, left);
      if (w <= 0) break;
      p += w;
      left -= static_cast<std::size_t>(w);
    }
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[4096];
  for (ssize_t got; (got = read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(got));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "crashed";
  return text;
}

}  // namespace hetlb::sim::testing
