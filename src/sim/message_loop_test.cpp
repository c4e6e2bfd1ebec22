// The benchmark's two baselines differ only in how their messages share simulated dates.
#include "hetlb/sim/message_loop.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "forked_run.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {
namespace {

// "events dates" of one loop, in a child process (one SimGrid engine per process).
std::pair<double, double> loop(int nodes, int messages, bool desynchronised) {
  const std::string out = testing::run_in_child([=] {
    const LoopResult r = bare_message_loop(nodes, messages, desynchronised);
    return std::to_string(r.events) + " " + std::to_string(r.dates);
  });
  double events = 0, dates = 0;
  if (std::sscanf(out.c_str(), "%lf %lf", &events, &dates) != 2) ADD_FAILURE() << out;
  return {events, dates};
}

TEST(MessageLoop, SynchronisedRoundsShareADateDesynchronisedMessagesDoNot) {
  const auto [events, dates] = loop(8, 50, false);
  EXPECT_EQ(events, 400);
  EXPECT_LE(dates, 2 * 50);  // each round's messages end together (a send and a receive date at most)
  const auto [devents, ddates] = loop(8, 50, true);
  EXPECT_EQ(devents, 400);
  EXPECT_GE(ddates, devents);  // every message ends at a date of its own
}

TEST(MessageLoop, TheSimulatorCountsItsDates) {
  // A diffusion run's dates lie between one per round and a few per event (the benchmark's matched
  // baseline interpolates between the loops at this density).
  const std::string out = testing::run_in_child([] {
    DiffusionConfig c;
    c.nodes = 16;
    c.topology = "torus";
    c.initial = "random";
    c.convergence_iterations = 20;
    const DiffusionResult r = simulate_diffusion(c);
    return std::to_string(r.events) + " " + std::to_string(r.dates);
  });
  double events = 0, dates = 0;
  ASSERT_EQ(std::sscanf(out.c_str(), "%lf %lf", &events, &dates), 2) << out;
  EXPECT_GT(dates, 0.1 * events);
  EXPECT_LT(dates, 3 * events);
}

}  // namespace
}  // namespace hetlb::sim
