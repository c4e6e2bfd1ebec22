// Runs `hetlb simulate diffusion` processes (one SimGrid engine per process) with a wall-clock
// timeout each: a run over it is killed and reported as "timeout"; time the campaign spends stopped
// (Ctrl-Z, SIGSTOP; seen by the SIGCONT that resumes it) does not count. Children die with their
// parent (a campaign killed loses only its runs in progress).
#pragma once
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hetlb::campaign {

struct Outcome {
  std::size_t id = 0;
  std::string status;   // ok, timeout or failed
  nlohmann::json result;  // the simulator's JSON when ok
  std::string error;    // the simulator's error line when failed; the CPU time had when timeout
  double wall_seconds = 0;
  double cpu_seconds = 0;  // the run's own (user + system); not carried by encode()
};

class Runner {
 public:
  // `hetlb`: the hetlb executable; `timeout`: wall seconds per run (0: none).
  // It counts SIGCONTs (one Runner at a time per process): the previous handler is back when it goes.
  Runner(std::string hetlb, double timeout);
  ~Runner();  // kills the runs still in progress
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  void start(std::size_t id, const std::vector<std::string>& args);
  std::size_t running() const { return children_.size(); }
  // Waits until at least one run ends (killing runs past their timeout); returns the ended runs.
  std::vector<Outcome> wait() { return wait_for(-1); }
  // The same, giving up after `seconds` (< 0: never) with no outcome.
  std::vector<Outcome> wait_for(double seconds);

 private:
  struct Child {
    pid_t pid;
    std::size_t id;
    std::string out, err;
    std::chrono::steady_clock::time_point start;
    bool killed = false;
  };
  struct Look {
    std::chrono::steady_clock::time_point now;
    unsigned continues = 0;  // SIGCONTs received by then
  };
  static Look look();
  Outcome collect(const Child& c, int status, const struct rusage& usage);
  std::string hetlb_;
  double timeout_;
  std::vector<Child> children_;
  Look last_look_;  // the runs' last look at the clock (a start or a poll)
  struct sigaction previous_sigcont_ {};
};

// The hetlb executable beside the running one (hetlb-campaign and hetlb are installed together).
std::string hetlb_beside_self();

// The build id (include/hetlb/build_info.hpp, build_id()) of the simulator `hetlb`, which is what its
// rows record, from its --version; `fallback` when it cannot say.
std::string simulator_build_id(const std::string& hetlb, const std::string& fallback);

// Serialises an outcome into one string (to send it between MPI ranks), and back.
std::string encode(const Outcome& o);
Outcome decode(const std::string& text);

}  // namespace hetlb::campaign
