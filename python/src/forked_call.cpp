#include "forked_call.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "hetlb/error.hpp"

namespace hetlb::python {

namespace {

void write_all(int fd, const std::string& text) {
  const char* p = text.data();
  for (std::size_t left = text.size(); left > 0;) {
    const ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

}  // namespace

std::string forked_call(const std::function<std::string()>& body, const std::function<bool()>& interrupted) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(fd[0]);
    std::string out;
    try {
      out = "ok " + body();
    } catch (const std::exception& e) {
      out = std::string("error ") + e.what();
    } catch (...) {
      out = "error unknown failure";
    }
    write_all(fd[1], out);
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[65536];
  for (;;) {
    pollfd p{fd[0], POLLIN, 0};
    const int ready = poll(&p, 1, 100);
    if (ready == 0 || (ready < 0 && errno == EINTR)) {
      if (interrupted && interrupted()) {
        kill(pid, SIGKILL);
        close(fd[0]);
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        throw Interrupted{};
      }
      continue;
    }
    const ssize_t got = read(fd[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buf, static_cast<std::size_t>(got));
  }
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (text.rfind("error ", 0) == 0) throw Error(text.substr(6));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.rfind("ok ", 0) != 0)
    throw std::runtime_error("the simulation's process died (signal or abort); nothing was returned");
  return text.substr(3);
}

}  // namespace hetlb::python
