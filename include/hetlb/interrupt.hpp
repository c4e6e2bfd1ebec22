// SIGINT and SIGTERM as a request to stop cleanly (docs/limits.md, "Interrupting a long run"). A
// command that can run for minutes (hetlb simulate ring-iterations and diffusion, hetlb campaign)
// installs the handlers, checks interrupted() where it reports its progress (a ring iteration, a
// simulated computing iteration, a campaign's poll), ends its work there, writes what it has through
// the usual writers (output_path.hpp: outputs are whole or absent) marked partial, and throws
// Interrupted: the command line then prints its one line and exits 128 + the signal (130, 143).
//
// The handler only stores the signal's number in a lock-free atomic (async-signal-safe: it may land
// anywhere, in a SimGrid actor's context or in a write), and is reset by its first signal
// (SA_RESETHAND): a second Ctrl-C ends the process at once, the old way. A signal ignored when the
// handlers are installed (a background job of a non-interactive shell, nohup) stays ignored.
#pragma once
#include <stdexcept>
#include <string>

namespace hetlb {

// Installs the handlers of SIGINT and SIGTERM (once; later calls reinstall them where something else,
// SimGrid's engine, has put its own). Not thread-safe: called by the program's main thread.
void install_interrupt_handlers();

// Called after a library that sets its own SIGINT handler (SimGrid's engine prints its actors and exits
// 1) has been initialised: puts hetlb's handlers back when they were installed, else does nothing.
void restore_interrupt_handlers();

bool interrupted();                   // SIGINT or SIGTERM has been received since the handlers were installed
int interrupt_signal();               // its number (SIGINT or SIGTERM), 0 before any
std::string interrupt_signal_name();  // "SIGINT", "SIGTERM" ("" before any)
int interrupt_exit_status();          // 128 + interrupt_signal(): 130, 143

// Thrown by a command once its partial results are written: the command line prints "hetlb: " what()
// on stderr (one line) and exits interrupt_exit_status(), its outputs committed.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace hetlb
