// SIGINT and SIGTERM as a request to stop cleanly (hetlb/interrupt.hpp).
#include "hetlb/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace hetlb {

namespace {
// The first signal received (0: none). Written by the handler: lock-free, so async-signal-safe.
std::atomic<int> g_interrupt{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");
constexpr int kInterruptSignals[2] = {SIGINT, SIGTERM};
bool g_interrupt_installed = false;
bool g_interrupt_ignored[2] = {false, false};  // ignored when first installed: they stay so

extern "C" void on_interrupt_signal(int sig) {
  int none = 0;
  g_interrupt.compare_exchange_strong(none, sig, std::memory_order_relaxed);  // the first one is kept
}

void set_interrupt_handlers(bool first) {
  for (int i = 0; i < 2; ++i) {
    if (first) {
      struct sigaction old {};
      ::sigaction(kInterruptSignals[i], nullptr, &old);
      g_interrupt_ignored[i] = old.sa_handler == SIG_IGN;
    }
    if (g_interrupt_ignored[i]) continue;
    struct sigaction a {};
    sigemptyset(&a.sa_mask);
    // A signal already received has reset its handler (SA_RESETHAND): the next one ends the process.
    if (g_interrupt.load(std::memory_order_relaxed) == kInterruptSignals[i]) {
      a.sa_handler = SIG_DFL;
    } else {
      a.sa_handler = on_interrupt_signal;
      a.sa_flags = SA_RESTART | SA_RESETHAND;  // interrupted system calls resume (a write ends whole)
    }
    ::sigaction(kInterruptSignals[i], &a, nullptr);
  }
}
}  // namespace

void install_interrupt_handlers() {
  set_interrupt_handlers(!g_interrupt_installed);
  g_interrupt_installed = true;
}

void restore_interrupt_handlers() {
  if (g_interrupt_installed) set_interrupt_handlers(false);
}

bool interrupted() { return g_interrupt.load(std::memory_order_relaxed) != 0; }

int interrupt_signal() { return g_interrupt.load(std::memory_order_relaxed); }

std::string interrupt_signal_name() {
  switch (interrupt_signal()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "";
  }
}

int interrupt_exit_status() { return 128 + interrupt_signal(); }

}  // namespace hetlb
