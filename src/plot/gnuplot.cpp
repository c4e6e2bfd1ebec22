#include "hetlb/plot/gnuplot.hpp"

#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/temp_file.hpp"

namespace hetlb::plot {

namespace fs = std::filesystem;

namespace {

std::string unknown_format(const std::string& path) {
  return fmt::format("unknown figure format '{}': expected a .png or .svg file name", fs::path(path).extension().string());
}

// The extensions terminal_for() has a terminal for.
bool is_figure_format(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".png" || ext == ".svg";
}

}  // namespace

std::string terminal_for(const std::string& path, int width, int height) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".png") return fmt::format("pngcairo size {},{} font 'sans,10'", width, height);
  if (ext == ".svg") return fmt::format("svg size {},{} font 'sans,10' background rgb 'white'", width, height);
  throw Error(fmt::format("{}: {}", path, unknown_format(path)));
}

void check_figure_path(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  if (!is_figure_format(path)) throw Error(fmt::format("{} \"{}\": {}", option, path, unknown_format(path)));
  check_writable(option, path);
}

namespace {

// A control character (a newline ends a gnuplot command: what follows it would be read as one) becomes
// '?'; every other byte is kept.
std::string without_controls(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  return out;
}

}  // namespace

std::string quote(const std::string& s) {
  // gnuplot's single-quoted strings take every character as it is (no backslash escapes, no `command`
  // substitution, no @macro); only the quote itself is written twice.
  std::string out = "'";
  for (const char c : without_controls(s)) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string quote_data(const std::string& s) {
  // A data line is never run as a command; a double-quoted column cannot hold a double quote.
  std::string out = "\"";
  for (const char c : without_controls(s)) out += c == '"' ? '\'' : c;
  return out + "\"";
}

namespace {

// The first line of gnuplot's log (read from its descriptor) that says something: its error, after the
// echoed script line.
std::string first_message(int log_fd) {
  std::string text;
  char buf[4096];
  for (ssize_t got; (got = ::pread(log_fd, buf, sizeof buf, static_cast<off_t>(text.size()))) > 0 && text.size() < (1 << 20);)
    text.append(buf, static_cast<std::size_t>(got));
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(" \t^");
    if (start != std::string::npos && line.find("line ") != std::string::npos) return line.substr(start);
  }
  return "";
}

// Runs gnuplot in `folder` on `script` (its standard input), the figure to `out_fd` (its standard
// output), its messages to `log_fd`: no shell, and no user string on a command line. Returns gnuplot's
// wait status, or throws when it cannot start.
int run_gnuplot(const std::string& script, const fs::path& folder, int out_fd, int log_fd, const std::string& path) {
  // A socket rather than a pipe: send() with MSG_NOSIGNAL, so gnuplot dying early is an error here,
  // not a SIGPIPE that kills hetlb.
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw Error(fmt::format("{}: cannot start gnuplot ({})", path, std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  char arg0[] = "gnuplot";
  char* argv[] = {arg0, nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    throw Error(fmt::format("{}: cannot start gnuplot ({}; is gnuplot installed? make deps installs it)", path,
                            std::strerror(spawned)));
  }
  for (std::size_t done = 0; done < script.size();) {
    const ssize_t n = ::send(fds[0], script.data() + done, script.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // gnuplot stopped reading: its exit status and log say why
    done += static_cast<std::size_t>(n);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

void render(const std::string& script, const std::string& path) {
  if (!is_figure_format(path)) throw Error(fmt::format("{}: {}", path, unknown_format(path)));
  if (const std::string why = unwritable_reason(path); !why.empty()) throw Error(fmt::format("{}: {}", path, why));
  claim_output("", path);
  const fs::path target = output_target(path);  // a symbolic link is drawn through
  // gnuplot writes the figure to its standard output (`set output` without a file): a temporary file
  // hetlb created beside the figure (hetlb/temp_file.hpp). No file name enters the script.
  std::string text = script;
  const std::string ph = kOutputPlaceholder;
  for (std::size_t at = text.find(ph); at != std::string::npos; at = text.find(ph, at)) text.replace(at, ph.size(), "");
  // gnuplot's messages go to a log of their own, never to our standard output (where a summary may be
  // going): its first line is quoted if the figure fails, warnings are dropped otherwise.
  std::optional<TempFile> figure, log;
  try {
    figure.emplace(target);
    log.emplace(target);
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot write in its folder ({})", path, std::strerror(e.code().value())));
  }
  const int status = run_gnuplot(text, target.parent_path(), figure->fd(), log->fd(), path);
  struct stat drawn {};
  if (status != 0 || ::fstat(figure->fd(), &drawn) != 0 || drawn.st_size == 0) {
    const std::string said = first_message(log->fd());
    const std::string how = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                              : fmt::format("signal {}", WTERMSIG(status));
    throw Error(fmt::format("{}: gnuplot failed to draw the figure ({}{})", path, how, said.empty() ? "" : ": " + said));
  }
  try {
    figure->close();
  } catch (const std::system_error& e) {
    throw Error(fmt::format("{}: cannot write the file ({})", path, std::strerror(e.code().value())));
  }
  commit_output(figure->release(), target, path);
}

}  // namespace hetlb::plot
