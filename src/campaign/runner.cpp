// Child processes of a campaign: fork + exec of `hetlb simulate diffusion`, output in temporary
// files, a parent-death signal so that a killed campaign leaves no orphan simulation behind.
#include "runner.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::campaign {

namespace {
// SIGCONTs received: the campaign (with its runs, in its process group) was stopped and continued.
std::atomic<unsigned> continues{0};
static_assert(std::atomic<unsigned>::is_always_lock_free, "the SIGCONT handler needs a lock-free counter");
extern "C" void count_continue(int) { continues.fetch_add(1, std::memory_order_relaxed); }

std::string temp_file() {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/hetlb-campaign-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw Error("campaign: cannot create a temporary file; expected a writable TMPDIR");
  close(fd);
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The last progress line of a run's stderr ("simulated 412.3 s of 2000.0 s, 0/256 nodes in the 1% band
// ..."), without its prefix: how far a run that was killed had got. Empty if it printed none.
std::string last_progress(const std::string& err) {
  const std::string prefix = "hetlb: simulated ";
  std::string last;
  std::size_t begin = 0;
  for (std::size_t end; (end = err.find('\n', begin)) != std::string::npos; begin = end + 1)
    if (err.compare(begin, prefix.size(), prefix) == 0) last = err.substr(begin + 7, end - begin - 7);
  return last;  // a line cut off by the kill (no newline) is not taken
}

// The last "hetlb: error:" line of a run's stderr.
std::string error_line(const std::string& err) {
  const auto last = err.rfind("hetlb: error:");
  if (last == std::string::npos) return "";
  return err.substr(last, err.find('\n', last) - last);
}
}  // namespace

std::string simulator_build_id(const std::string& hetlb, const std::string& fallback) {
  int out[2];
  if (pipe(out) != 0) return fallback;
  const pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return fallback;
  }
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    if (const int null = open("/dev/null", O_WRONLY); null >= 0) dup2(null, STDERR_FILENO);
    execl(hetlb.c_str(), hetlb.c_str(), "--version", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string text;
  char buffer[512];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // "hetlb VERSION (commit C[, uncommitted changes])" (build_info.hpp, version_text): C's first 12
  // digits and -dirty, as build_id() makes them.
  static const std::regex line(R"(^\S+ \S+ \(commit ([0-9a-f]{12})[0-9a-f]*(, uncommitted changes)?\)|^\S+ \S+ \(commit (unknown))");
  std::smatch m;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !std::regex_search(text, m, line)) return fallback;
  if (m[3].matched) return "unknown";
  return m[1].str() + (m[2].matched ? "-dirty" : "");
}

std::string hetlb_beside_self() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error("campaign: cannot locate the running executable (/proc/self/exe)");
  return (self.parent_path() / "hetlb").string();
}

Runner::Runner(std::string hetlb, double timeout) : hetlb_(std::move(hetlb)), timeout_(timeout) {
  struct sigaction on_continue {};
  on_continue.sa_handler = count_continue;
  on_continue.sa_flags = SA_RESTART;
  sigemptyset(&on_continue.sa_mask);
  sigaction(SIGCONT, &on_continue, &previous_sigcont_);
}

// The clock and the SIGCONT count read together: no SIGCONT came between the two reads of the count,
// so every stop the count holds ended before `now`, and a stop not in it ends after.
Runner::Look Runner::look() {
  for (;;) {
    const unsigned before = continues.load();
    const auto now = std::chrono::steady_clock::now();
    if (continues.load() == before) return {now, before};
  }
}

Runner::~Runner() {
  sigaction(SIGCONT, &previous_sigcont_, nullptr);
  for (Child& c : children_) {
    kill(c.pid, SIGKILL);
    waitpid(c.pid, nullptr, 0);
    std::remove(c.out.c_str());
    std::remove(c.err.c_str());
  }
}

void Runner::start(std::size_t id, const std::vector<std::string>& args) {
  const Look at = look();
  Child c{0, id, temp_file(), temp_file(), at.now};
  // With runs in flight, a stop since the last poll must still be seen by the next one: the last look
  // moves only when nothing is running (a stop from here on is seen at the next poll).
  if (children_.empty()) last_look_ = at;
  std::vector<std::string> argv{hetlb_, "simulate", "diffusion"};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t parent = getpid();
  c.pid = fork();
  if (c.pid < 0) throw Error("campaign: fork failed");
  if (c.pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (!std::freopen(c.out.c_str(), "w", stdout) || !std::freopen(c.err.c_str(), "w", stderr)) _exit(127);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(hetlb_.c_str(), cargv.data());
    std::fprintf(stderr, "hetlb: error: campaign: cannot run %s\n", hetlb_.c_str());
    _exit(127);
  }
  children_.push_back(std::move(c));
}

Outcome Runner::collect(const Child& c, int status, const struct rusage& usage) {
  Outcome o;
  o.id = c.id;
  o.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
  o.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  const std::string out = slurp(c.out), err = slurp(c.err);
  std::remove(c.out.c_str());
  std::remove(c.err.c_str());
  if (c.killed) {
    o.status = "timeout";
    o.wall_seconds = timeout_;
    // The CPU time it had says whether the machine was busy: well below the timeout, other work
    // (another campaign, a build) took the cores, and `--retry` on a quieter machine may end it.
    o.error = fmt::format("over the {} s timeout ({:.1f} s of CPU)", timeout_, o.cpu_seconds);
    if (const std::string p = last_progress(err); !p.empty()) o.error += "; last progress: " + p;
    return o;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    try {
      o.result = nlohmann::json::parse(out);
      o.status = "ok";
      return o;
    } catch (const std::exception&) {
      o.error = "unreadable simulator output";
    }
  }
  o.status = "failed";
  if (o.error.empty()) o.error = error_line(err);
  if (o.error.empty())
    o.error = WIFSIGNALED(status) ? fmt::format("killed by signal {}", WTERMSIG(status))
                                  : fmt::format("exit status {}", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return o;
}

std::vector<Outcome> Runner::wait_for(double seconds) {
  std::vector<Outcome> ended;
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (ended.empty() && !children_.empty() && (seconds < 0 || std::chrono::steady_clock::now() < until)) {
    // A SIGCONT since the last look: the campaign and its runs (its process group) were stopped
    // (Ctrl-Z, SIGSTOP) in between. That time does not count against the runs' timeouts, or resuming
    // would record every run in progress as a timeout. Any other gap counts, however long (a busy
    // disk, a loaded machine); a suspended machine's sleep is not on the steady clock.
    const Look at = look();
    const auto now = at.now;
    if (at.continues != last_look_.continues)
      for (Child& c : children_) c.start += now - last_look_.now;
    last_look_ = at;
    for (auto it = children_.begin(); it != children_.end();) {
      int status = 0;
      struct rusage usage {};
      const pid_t got = wait4(it->pid, &status, WNOHANG, &usage);
      if (got == it->pid) {
        ended.push_back(collect(*it, status, usage));
        it = children_.erase(it);
        continue;
      }
      // The age at `now`, the date the stop check above used: a stop that lands after that check (in
      // wait4, say) is seen by the next poll's check, never counted here as the run's own time.
      const double age = std::chrono::duration<double>(now - it->start).count();
      if (timeout_ > 0 && age > timeout_ && !it->killed) {
        kill(it->pid, SIGKILL);
        it->killed = true;
      }
      ++it;
    }
    if (ended.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return ended;
}

// Fields separated by the ASCII unit separator (never in the simulator's output).
std::string encode(const Outcome& o) {
  return fmt::format("{}\x1f{}\x1f{:.17g}\x1f{}\x1f{}", o.id, o.status, o.wall_seconds, o.error,
                     o.status == "ok" ? o.result.dump() : "");
}

Outcome decode(const std::string& text) {
  std::vector<std::string> f;
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const auto sep = text.find('\x1f', start);
    if (sep == std::string::npos) throw Error("campaign: malformed outcome message");
    f.push_back(text.substr(start, sep - start));
    start = sep + 1;
  }
  Outcome o;
  o.id = std::stoull(f[0]);
  o.status = f[1];
  o.wall_seconds = std::stod(f[2]);
  o.error = f[3];
  if (o.status == "ok") o.result = nlohmann::json::parse(text.substr(start));
  return o;
}

}  // namespace hetlb::campaign
