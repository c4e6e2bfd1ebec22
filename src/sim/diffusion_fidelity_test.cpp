// Whole simulations checked against the model: every decision's post-conditions as the deciding node
// saw them, the runs that the literal reading of "estimate" could not finish, integer runs that end in
// the band, and the computed end of the streaks against the fully simulated one.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "forked_run.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {
namespace {

using testing::run_in_child;

DiffusionConfig base(const std::string& topology, int nodes, const std::string& strategy, double k = 1) {
  DiffusionConfig c;
  c.nodes = nodes;
  c.topology = topology;
  c.strategy = diffusion::Strategy(strategy, k, false);
  c.initial = "single";
  c.load_per_node = 1000;
  c.convergence_iterations = 50;
  return c;
}

// Best effort (Section 3) with k = 1: after each decision the node and every selected neighbour are at
// the mean of the node's view of them; "simple" keeps the ping-pong condition of Section 2 in the node's
// view: x_i - sum s >= x_j + s_j for every lighter neighbour j.
std::string check_decisions(DiffusionConfig c) {
  std::string violation;
  std::uint64_t decisions = 0, feeding = 0;
  const std::string kind = c.strategy.name();
  const double k = c.strategy.has("k") ? c.strategy.param("k") : 1.0;
  c.on_decision = [&](const DecisionEvent& e) {
    ++decisions;
    double given = 0, selected_sum = 0;
    int selected = 0;
    for (std::size_t p = 0; p < e.transfers.size(); ++p)
      if (e.transfers[p] > 0) given += e.transfers[p], selected_sum += e.estimates_before[p], ++selected;
    const double tol = 1e-9 * (1 + e.own_before);
    if (std::abs(e.own_after - (e.own_before - given)) > tol && violation.empty())
      violation = fmt::format("node {} at {}: own view {} -> {} after giving {}", e.node, e.date, e.own_before, e.own_after, given);
    if (selected == 0) return;
    ++feeding;
    if (kind == "besteffort" && !c.strategy.integer) {
      const double mean = (e.own_before + selected_sum) / (selected + 1);
      if (k == 1 && std::abs(e.own_after - mean) > tol && violation.empty())
        violation = fmt::format("node {} at {}: own view {} after the decision, prefix mean {}", e.node, e.date, e.own_after, mean);
      for (std::size_t p = 0; p < e.transfers.size(); ++p) {
        if (!(e.transfers[p] > 0)) continue;
        const double want = e.estimates_before[p] + (mean - e.estimates_before[p]) / k;
        if (std::abs(e.estimates_after[p] - want) > tol && violation.empty())
          violation = fmt::format("node {} at {}: neighbour {} estimated {} after the decision, expected {}", e.node,
                                  e.date, p, e.estimates_after[p], want);
      }
    }
    if (kind == "simple")
      for (std::size_t p = 0; p < e.transfers.size(); ++p)
        if (e.estimates_before[p] < e.own_before && e.own_after < e.estimates_before[p] + e.transfers[p] - tol &&
            violation.empty())
          violation = fmt::format("node {} at {}: ping-pong condition broken towards neighbour {}", e.node, e.date, p);
  };
  const DiffusionResult r = simulate_diffusion(c);
  if (!violation.empty()) return violation;
  return fmt::format("ok {} {} {}", decisions, feeding, r.metrics.converged ? 1 : 0);
}

TEST(DiffusionFidelity, DecisionPostConditionsHoldInWholeRuns) {
  for (const char* topology : {"line", "ring", "torus", "hypercube"})
    for (const char* strategy : {"besteffort", "simple"})
      for (bool virt : {false, true})
        for (double k : {1.0, 2.0}) {
          if (std::string(strategy) == "simple" && k != 1) continue;
          DiffusionConfig c = base(topology, 8, strategy, k);
          if (std::string(topology) == "torus") c.nodes = 9;
          c.virtual_load = virt;
          c.initial = "random";
          c.seed = 3;
          const std::string out = run_in_child([&] { return check_decisions(c); });
          SCOPED_TRACE(fmt::format("{} {} k={} virtual={}", topology, strategy, k, virt));
          ASSERT_EQ(out.rfind("ok ", 0), 0u) << out;
          std::istringstream in(out.substr(3));
          std::uint64_t decisions = 0, feeding = 0;
          int converged = 0;
          in >> decisions >> feeding >> converged;
          EXPECT_GT(feeding, 0u);  // the checks above did see transfers
          EXPECT_EQ(converged, 1);
        }
}

std::string metrics_line(const DiffusionConfig& c) {
  const DiffusionResult r = simulate_diffusion(c);
  const auto& m = r.metrics;
  return fmt::format("{} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} {} {} {} {} {} {:.17g} {:.17g}", m.converged ? 1 : 0,
                     m.avg_convergence_date, m.max_convergence_date, m.data_transfer_amount, m.avg_idle_time,
                     m.simulated_time, m.computing_iterations, m.balancing_iterations, m.ctrl_messages,
                     m.data_messages, m.ctrl_messages_skipped, r.fast_forwarded ? 1 : 0, m.final_min_load,
                     m.final_max_load);
}

std::vector<double> numbers(const std::string& line) {
  std::istringstream in(line);
  std::vector<double> v;
  for (std::string w; in >> w;) v.push_back(std::stod(w));
  return v;
}

// The computed end of the streaks gives the metrics of the fully simulated end.
TEST(DiffusionFidelity, ComputedStreakEndsEqualSimulatedOnes) {
  struct Case {
    const char* topology;
    int nodes;
    const char* strategy;
    bool integer, virt;
    const char* initial;
    bool staggered;  // balancing phases (the shortcut counts each node's dates from its own phase)
  };
  for (const Case& k : {Case{"ring", 6, "besteffort", false, false, "single", false},
                        Case{"torus", 9, "makhoul", true, false, "random", false},
                        Case{"hypercube", 8, "besteffort", true, true, "random", false},
                        Case{"line", 5, "simple", false, false, "random", false},
                        Case{"torus", 9, "besteffort", false, false, "random", true},
                        Case{"hypercube", 8, "makhoul", true, true, "single", true}}) {
    DiffusionConfig c = base(k.topology, k.nodes, k.strategy);
    if (k.staggered) c.lb_phase = diffusion::BalancingPhase::staggered;
    c.strategy.integer = k.integer;
    c.virtual_load = k.virt;
    c.initial = k.initial;
    c.convergence_iterations = 300;
    const auto computed = numbers(run_in_child([&] { return metrics_line(c); }));
    c.fast_forward = false;
    const auto simulated = numbers(run_in_child([&] { return metrics_line(c); }));
    SCOPED_TRACE(fmt::format("{} {} {}{}", k.topology, k.strategy, k.integer ? "integer" : "real",
                             k.staggered ? " staggered" : ""));
    ASSERT_EQ(computed.size(), 14u);
    ASSERT_EQ(simulated.size(), 14u);
    EXPECT_EQ(computed[11], 1);  // the shortcut was taken
    EXPECT_EQ(simulated[11], 0);
    EXPECT_EQ(computed[0], 1);
    EXPECT_EQ(simulated[0], 1);
    for (int i : {1, 2, 3, 4, 5, 12, 13}) EXPECT_NEAR(computed[i], simulated[i], 1e-7 * (1 + std::abs(simulated[i]))) << i;
    for (int i : {6, 7}) EXPECT_NEAR(computed[i], simulated[i], k.nodes) << i;  // one iteration per node at the end date
    for (int i : {8, 9}) EXPECT_EQ(computed[i], simulated[i]) << i;
  }
}

// Integer load ends in the 1% band whenever the band is at least ceil(diameter / 2) units wide
// (DASUD's fixed points: every domain within one unit).
TEST(DiffusionFidelity, IntegerRunsEndInTheBand) {
  for (const auto& [topology, nodes] : std::vector<std::pair<const char*, int>>{{"line", 16}, {"ring", 16}, {"torus", 16}, {"hypercube", 16}})
    for (const char* strategy : {"besteffort", "makhoul", "simple"}) {
      DiffusionConfig c = base(topology, nodes, strategy);
      c.strategy.integer = true;
      c.convergence_iterations = 20;
      c.time_limit = 20000;
      const auto m = numbers(run_in_child([&] { return metrics_line(c); }));
      SCOPED_TRACE(fmt::format("{} {}", topology, strategy));
      ASSERT_EQ(m.size(), 14u);
      EXPECT_EQ(m[0], 1);
      EXPECT_GE(m[12], 990);
      EXPECT_LE(m[13], 1010);
    }
}

}  // namespace
}  // namespace hetlb::sim

namespace hetlb::sim {
namespace {

// Each node's first balancing date: 0 for every node when aligned (then every decision on the grid
// k x period), the node's own seeded phase x period when staggered.
std::string first_decisions(DiffusionConfig c) {
  std::vector<double> first(16, -1);
  bool on_grid = true;
  const double period = c.min_lb_iter;
  c.on_decision = [&](const DecisionEvent& e) {
    if (first[static_cast<std::size_t>(e.node)] < 0) first[static_cast<std::size_t>(e.node)] = e.date;
    const double k = e.date / period;
    on_grid = on_grid && std::abs(k - std::round(k)) < 1e-9;
  };
  simulate_diffusion(c);
  std::string out = on_grid ? "grid" : "off";
  for (double d : first) out += fmt::format(" {:.9f}", d);
  return out;
}

TEST(DiffusionFidelity, BalancingPhases) {
  DiffusionConfig c;
  c.nodes = 16;
  c.topology = "torus";
  c.initial = "random";
  c.convergence_iterations = 20;
  c.min_lb_iter = 0.5;
  const std::string aligned = run_in_child([&] { return first_decisions(c); });
  std::string at_zero = "grid";
  for (int i = 0; i < 16; ++i) at_zero += " 0.000000000";
  EXPECT_EQ(aligned, at_zero);
  c.lb_phase = diffusion::BalancingPhase::staggered;
  const std::string staggered = run_in_child([&] { return first_decisions(c); });
  std::string expected = "off";
  for (double p : diffusion::balancing_phases(diffusion::BalancingPhase::staggered, 16, c.seed))
    expected += fmt::format(" {:.9f}", p * 0.5);
  EXPECT_EQ(staggered, expected);
}

}  // namespace
}  // namespace hetlb::sim
