// Metrics::computed_load, the computation done of the fixed-duration runs: one node holding all the
// load and no balancing computes the whole load at every iteration (exact oracle), and the computed
// end of the streaks adds what the simulated end computes.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "forked_run.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {
namespace {

using testing::run_in_child;

DiffusionConfig fixed_duration(const std::string& strategy, double time_limit) {
  DiffusionConfig c;
  c.nodes = 8;
  c.topology = "ring";
  c.strategy = diffusion::Strategy(strategy, 1, false);
  c.initial = "single";
  c.load_per_node = 100;
  c.convergence_iterations = 1L << 50;  // never converges: the run lasts time_limit
  c.time_limit = time_limit;
  return c;
}

std::string computed(const DiffusionConfig& c) {
  const DiffusionResult r = simulate_diffusion(c);
  return fmt::format("{:.17g} {} {:.17g} {}", r.metrics.computed_load, r.metrics.computing_iterations,
                     r.metrics.simulated_time, r.fast_forwarded ? 1 : 0);
}

std::vector<double> numbers(const std::string& line) {
  std::istringstream in(line);
  std::vector<double> v;
  for (std::string w; in >> w;) v.push_back(std::stod(w));
  return v;
}

TEST(ComputedLoad, WithoutBalancingTheLoadedNodeComputesEverythingEachIteration) {
  const auto m = numbers(run_in_child([] { return computed(fixed_duration("none", 5)); }));
  ASSERT_EQ(m.size(), 4u) << m.size();
  EXPECT_GT(m[1], 0);
  EXPECT_EQ(m[0], m[1] * 800);  // every iteration is node 0's, on the whole load
  EXPECT_DOUBLE_EQ(m[2], 5);    // a fixed duration ends at the time limit
}

TEST(ComputedLoad, ComputedEndAddsWhatTheSimulatedEndComputes) {
  DiffusionConfig c = fixed_duration("besteffort", 20);
  const auto shortcut = numbers(run_in_child([&] { return computed(c); }));
  c.fast_forward = false;
  const auto simulated = numbers(run_in_child([&] { return computed(c); }));
  ASSERT_EQ(shortcut.size(), 4u);
  ASSERT_EQ(simulated.size(), 4u);
  EXPECT_EQ(shortcut[3], 1);  // the shortcut was taken
  EXPECT_EQ(simulated[3], 0);
  EXPECT_GT(simulated[0], 0);
  // At most one iteration per node apart at the end date, each on a load within 1% of the average.
  EXPECT_NEAR(shortcut[0], simulated[0], 8 * 101.0);
}

}  // namespace
}  // namespace hetlb::sim
