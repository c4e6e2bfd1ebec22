// The runner's wall clock: time between its polls counts against a run, however long; time the
// campaign spends stopped (seen by the SIGCONT that resumes it) does not. A run past its timeout says
// how much CPU it had and how far it got.
#include "runner.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace hetlb::campaign {
namespace {

const std::vector<std::string> kShortRun{"--strategy", "makhoul", "--platform", "cluster", "--nodes",   "16",
                                         "--topology", "ring",    "--initial",  "single",  "--ratio",   "1",
                                         "--iterations", "200", "--format", "json"};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// A campaign busy elsewhere for 3 s (writing a row to a slow disk, say) was not stopped: the run's
// time goes on.
TEST(Runner, TimeBetweenPollsCountsWhenNothingStopped) {
  Runner runner(std::string(HETLB_BINARY_DIR) + "/bin/hetlb", 0);
  runner.start(7, kShortRun);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const auto ended = runner.wait();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].id, 7u);
  EXPECT_EQ(ended[0].status, "ok") << ended[0].error;
  EXPECT_GE(ended[0].wall_seconds, 3.0);
}

// Stopped for 3 s, then continued (SIGCONT): those 3 s are not the run's.
TEST(Runner, TimeStoppedDoesNotCount) {
  Runner runner(std::string(HETLB_BINARY_DIR) + "/bin/hetlb", 0);
  const auto begin = std::chrono::steady_clock::now();
  runner.start(3, kShortRun);
  const pid_t waker = fork();
  ASSERT_GE(waker, 0);
  if (waker == 0) {
    sleep(3);
    kill(getppid(), SIGCONT);
    _exit(0);
  }
  kill(getpid(), SIGSTOP);
  const auto ended = runner.wait();
  const double total = seconds_since(begin);
  waitpid(waker, nullptr, 0);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].status, "ok") << ended[0].error;
  EXPECT_GE(total, 2.9);
  EXPECT_LE(ended[0].wall_seconds, total - 2.5) << "of " << total << " s in all";
}

// A run past its timeout is killed; its error says how much CPU it had: at most the timeout, and far
// less when other work took the cores.
TEST(Runner, TimeoutSaysTheCpuTimeItHad) {
  Runner runner(std::string(HETLB_BINARY_DIR) + "/bin/hetlb", 1.0);
  runner.start(1, {"--strategy", "makhoul", "--platform", "cluster", "--nodes", "256", "--topology", "line",
                   "--initial", "single", "--iterations", "1000000", "--format", "json"});
  const auto ended = runner.wait();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].status, "timeout");
  EXPECT_EQ(ended[0].wall_seconds, 1.0);
  const std::string prefix = "over the 1 s timeout (", suffix = " s of CPU)";
  ASSERT_EQ(ended[0].error.rfind(prefix, 0), 0u) << ended[0].error;
  ASSERT_GT(ended[0].error.size(), prefix.size() + suffix.size()) << ended[0].error;
  EXPECT_EQ(ended[0].error.substr(ended[0].error.size() - suffix.size()), suffix) << ended[0].error;
  const double cpu = std::stod(ended[0].error.substr(prefix.size()));
  EXPECT_GT(ended[0].cpu_seconds, 0);
  EXPECT_LE(ended[0].cpu_seconds, 1.5);  // never more than the wall time it had
  EXPECT_NEAR(cpu, ended[0].cpu_seconds, 0.051);
}

// A run killed at its timeout also says how far it had got: its last whole progress line. A line the
// kill cut off is not taken.
TEST(Runner, TimeoutSaysTheLastProgressLine) {
  char dir[] = "/tmp/hetlb-runner-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string script = std::string(dir) + "/hetlb";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\n"
           "echo 'hetlb: simulated 1.0 s of 10.0 s, first' >&2\n"
           "echo 'hetlb: warning: not progress' >&2\n"
           "echo 'hetlb: simulated 2.5 s of 10.0 s, 3/16 nodes in the 1% band' >&2\n"
           "printf 'hetlb: simulated 3.0 s of 10' >&2\n"
           "exec sleep 30\n";
  }
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  Runner runner(script, 1.0);
  runner.start(2, kShortRun);
  const auto ended = runner.wait();
  std::remove(script.c_str());
  rmdir(dir);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].status, "timeout");
  const std::string suffix = " s of CPU); last progress: simulated 2.5 s of 10.0 s, 3/16 nodes in the 1% band";
  ASSERT_GT(ended[0].error.size(), suffix.size()) << ended[0].error;
  EXPECT_EQ(ended[0].error.substr(ended[0].error.size() - suffix.size()), suffix) << ended[0].error;
}

// The same with the simulator itself, which prints a progress line every 5 s of wall time, at the end of
// one of node 0's computing iterations. Random loads keep those iterations about a tau of simulated time
// long from the start (all the load on node 0 would make its first one 256 tau long, longer than the
// timeout under the sanitizers on a busy machine), and the timeout leaves the simulator's set-up 7 s before
// the first line is due (3 s were too few sanitized beside a build on 2 cores: SimGrid's 256 thread
// contexts wait for the cores).
// The line does not converge, nor is its end computed, within the timeout.
TEST(Runner, TimeoutOfASimulationSaysHowFarItGot) {
  Runner runner(std::string(HETLB_BINARY_DIR) + "/bin/hetlb", 12.0);  // past the first progress line (one every 5 s of wall time)
  runner.start(1, {"--strategy", "makhoul", "--platform", "cluster", "--nodes", "256", "--topology", "line",
                   "--initial", "random", "--seed", "1", "--iterations", "1000000", "--format", "json"});
  const auto ended = runner.wait();
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].status, "timeout");
  const std::string& e = ended[0].error;
  const auto at = e.find(" s of CPU); last progress: simulated ");
  ASSERT_NE(at, std::string::npos) << e;
  EXPECT_NE(e.find(" nodes in the 1% band (shortest streak ", at), std::string::npos) << e;
  EXPECT_NE(e.find(" data messages in flight, ", at), std::string::npos) << e;
}

}  // namespace
}  // namespace hetlb::campaign
