#include "plugin_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace hetlb::diffusion::detail {

namespace {

// The call under way on this thread (for the exit guard and the crash handler) and in the process (for
// the watchdog, which runs on a thread of its own).
thread_local const std::string* t_origin = nullptr;
thread_local int t_node = 0;
std::atomic<const std::string*> g_origin{nullptr};
std::atomic<int> g_node{0};
std::atomic<bool> g_inside{false};
std::atomic<std::uint64_t> g_calls{0};

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

// Async-signal-safe writing of the one line.
void guard_write(const char* s, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}
void guard_write(const char* s) { guard_write(s, std::strlen(s)); }
void guard_write_number(long long x) {
  char digits[24];
  int k = 0;
  const bool negative = x < 0;
  unsigned long long u = negative ? 0ULL - static_cast<unsigned long long>(x) : static_cast<unsigned long long>(x);
  do digits[k++] = static_cast<char>('0' + u % 10); while ((u /= 10) != 0);
  if (negative) guard_write("-");
  while (k > 0) guard_write(&digits[--k], 1);
}
// "hetlb: error: strategy plug-in PATH: node N: WHAT[SECONDS WHAT_AFTER]", then the end of the process.
[[noreturn]] void guard_fail(const std::string* origin, int node, const char* what, long long seconds = -1,
                       const char* what_after = "") {
  guard_write("hetlb: error: strategy plug-in ");
  guard_write(origin->c_str(), origin->size());
  guard_write(": node ");
  guard_write_number(node);
  guard_write(": ");
  guard_write(what);
  if (seconds >= 0) guard_write_number(seconds);
  guard_write(what_after);
  guard_write("\n");
  ::_exit(1);
}

const char* guard_signal_text(int sig) {
  switch (sig) {
    case SIGSEGV: return "decide() crashed (SIGSEGV: a bad memory access)";
    case SIGBUS: return "decide() crashed (SIGBUS: a bad memory access)";
    case SIGFPE: return "decide() crashed (SIGFPE: an arithmetic trap)";
    case SIGILL: return "decide() crashed (SIGILL: an illegal instruction)";
    default: return "decide() aborted (SIGABRT)";
  }
}

void guard_on_signal(int sig) {
  if (const std::string* origin = t_origin) guard_fail(origin, t_node, guard_signal_text(sig));
  // Not inside a plug-in: the handler there was before, as if this one had never been.
  for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
    if (kSignals[i] == sig) ::sigaction(sig, &g_previous[i], nullptr);
  if (sig == SIGABRT) ::raise(sig);  // a fault comes again when the instruction is retried
}

void guard_on_exit() {
  if (const std::string* origin = t_origin) guard_fail(origin, t_node, "decide() called exit(); expected it to return its decision");
}

void guard_watch(int limit_seconds) {
  std::uint64_t seen = 0;
  int still = 0;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const std::uint64_t calls = g_calls.load(std::memory_order_relaxed);
    if (g_inside.load(std::memory_order_relaxed) && calls == seen) {
      if (++still >= limit_seconds) {
        const std::string* origin = g_origin.load();
        if (origin != nullptr)
          guard_fail(origin, g_node.load(), "decide() has not returned within ", limit_seconds,
               " s (HETLB_PLUGIN_DECIDE_TIMEOUT); expected it to return its decision");
      }
    } else {
      still = 0;
    }
    seen = calls;
  }
}

int guard_decide_timeout() {
  const char* text = std::getenv("HETLB_PLUGIN_DECIDE_TIMEOUT");
  if (text == nullptr || *text == '\0') return 60;
  char* end = nullptr;
  const long x = std::strtol(text, &end, 10);
  return end != nullptr && *end == '\0' && x >= 0 && x <= 86400 ? static_cast<int>(x) : 60;
}

}  // namespace

void install_plugin_guards() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::atexit(guard_on_exit);
    for (std::size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i) {
      struct sigaction action {};
      action.sa_handler = guard_on_signal;
      sigemptyset(&action.sa_mask);
      ::sigaction(kSignals[i], &action, &g_previous[i]);
    }
    if (const int limit = guard_decide_timeout(); limit > 0) std::thread(guard_watch, limit).detach();
  });
}

PluginCall::PluginCall(const std::string& origin, int node) {
  t_origin = &origin;
  t_node = node;
  g_origin.store(&origin, std::memory_order_relaxed);
  g_node.store(node, std::memory_order_relaxed);
  g_calls.fetch_add(1, std::memory_order_relaxed);
  g_inside.store(true, std::memory_order_relaxed);
}

PluginCall::~PluginCall() {
  g_inside.store(false, std::memory_order_relaxed);
  t_origin = nullptr;
}

}  // namespace hetlb::diffusion::detail
