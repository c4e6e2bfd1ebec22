// An independent check of the diffusion simulator: the same model run by a plain discrete-event
// implementation (reference_des.cpp, no SimGrid) and by simulate_diffusion on a star platform whose
// links give every transfer the same constant time, on graphs of 2 to 8 nodes. Differences beyond
// the tolerance are bugs in one of them (docs/simulation.md, "An independent check").
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "engine.hpp"
#include "forked_run.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"
#include "reference_des.hpp"

namespace hetlb::sim {
namespace {

using testing::Delivery;
using testing::ReferenceResult;
using testing::run_in_child;
using testing::StarPlatform;

// SimGrid settings that make a transfer's time exact: CM02 has no latency or bandwidth factor
// (both 1) and no weight-S, and without cross traffic no acknowledgement flow; its TCP window bound
// gamma / (2 x route latency) is 4 MiB / 100 us = 4e10 B/s here, far above every link. On FATPIPE
// links concurrent transfers do not share bandwidth, so a lone or concurrent transfer of b bytes from
// h to g takes exactly latency[h] + latency[g] + b / min(bandwidth[h], bandwidth[g])
// (TEST TransfersTakeConstantTimes).
constexpr const char* kExactNetwork = "--cfg=network/model:CM02 --cfg=network/crosstraffic:0";

// Tolerances (docs/simulation.md, "An independent check"). Both engines compute every date as
// start + duration in doubles, and SimGrid keeps its clock to 1e-9 s (precision/timing); observed
// gaps are below 1e-13 s. Loads and amounts are sums of the same transfers in the same order.
constexpr double kDateTolerance = 1e-6;    // seconds
constexpr double kAmountTolerance = 1e-9;  // relative
constexpr double kLoadTolerance = 1e-9;    // relative to the average load

// Each host has its own 50 us link to the centre. Bandwidths differ from host to host, and so do
// speeds (0.95 to 1.05 Gflop/s): with hosts of exactly 1 Gflop/s, all load on one node computes for
// exactly N x tau and ends on a load-balancing date of that node, a tie that SimGrid resolves at the
// granularity of its simcalls (the two activities interleave), which no other engine reproduces.
// Latencies are equal: CM02 shares even a FATPIPE link in inverse proportion to each flow's route
// latency (its sharing penalty), so routes of unequal latency would slow one another down.
StarPlatform star(int hosts, bool unit_speed) {
  StarPlatform p;
  for (int h = 0; h < hosts; ++h) {
    p.speed.push_back(unit_speed ? 1e9 : 1e9 * (0.9513 + 0.0137 * h));
    p.latency.push_back(50e-6);
    p.bandwidth.push_back(125e6 * (1 - 0.031 * h));
  }
  return p;
}

// The star as SimGrid XML: explicit routes through two FATPIPE links. (The <cluster> tag does not
// honour FATPIPE on its private links: concurrent transfers to one host would share its bandwidth.)
std::string star_xml(const StarPlatform& p) {
  std::string xml =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n<zone id=\"star\" routing=\"Full\">\n";
  const int n = static_cast<int>(p.speed.size());
  for (int h = 0; h < n; ++h) xml += fmt::format("  <host id=\"node-{}\" speed=\"{:.17g}f\"/>\n", h, p.speed[h]);
  for (int h = 0; h < n; ++h)
    xml += fmt::format("  <link id=\"link-{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\" sharing_policy=\"FATPIPE\"/>\n",
                       h, p.bandwidth[h], p.latency[h]);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      xml += fmt::format("  <route src=\"node-{0}\" dst=\"node-{1}\"><link_ctn id=\"link-{0}\"/><link_ctn id=\"link-{1}\"/></route>\n", a, b);
  return xml + "</zone>\n</platform>\n";
}

class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    path_ = "/tmp/hetlb-des-star-XXXXXX";
    const int fd = mkstemp(path_.data());
    const bool ok = fd >= 0 && write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    if (fd >= 0) close(fd);
    if (!ok) throw std::runtime_error("cannot write " + path_);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// What both engines report.
struct Outcome {
  double converged = 0, converged_nodes = 0, avg_date = 0, max_date = 0, amount = 0, data_messages = 0,
         ctrl_messages = 0, computing = 0, balancing = 0, idle = 0, end = 0, fast_forwarded = 0;
  std::vector<double> final_loads, dates;
};

constexpr std::size_t kScalars = 12;

std::string to_line(const Outcome& o) {
  std::string s = fmt::format("{} {} {:.17g} {:.17g} {:.17g} {} {} {} {} {:.17g} {:.17g} {}", o.converged,
                              o.converged_nodes, o.avg_date, o.max_date, o.amount, o.data_messages, o.ctrl_messages,
                              o.computing, o.balancing, o.idle, o.end, o.fast_forwarded);
  for (double x : o.final_loads) s += fmt::format(" {:.17g}", x);
  for (double x : o.dates) s += fmt::format(" {:.17g}", x);
  return s;
}

Outcome from_line(const std::string& line, int nodes) {
  std::istringstream in(line);
  std::vector<double> v;
  for (std::string w; in >> w;) v.push_back(std::stod(w));  // stod reads "nan"
  if (v.size() != kScalars + 2u * nodes) throw std::runtime_error("simulation failed: " + line);
  Outcome o{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], {}, {}};
  o.final_loads.assign(v.begin() + kScalars, v.begin() + kScalars + nodes);
  o.dates.assign(v.begin() + kScalars + nodes, v.end());
  return o;
}

Outcome of(const ReferenceResult& r) {
  return Outcome{r.converged ? 1.0 : 0.0, double(r.converged_nodes), r.avg_convergence_date,
                 r.max_convergence_date, r.data_transfer_amount, double(r.data_messages), double(r.ctrl_messages),
                 double(r.computing_iterations), double(r.balancing_iterations), r.avg_idle_time, r.finish_date, 0,
                 r.final_loads, r.convergence_dates};
}

// simulate_diffusion in a child process (one SimGrid engine per process) with exact transfer times.
Outcome simulated(DiffusionConfig c, const std::string& platform_file, int nodes) {
  c.platform = platform_file;
  const std::string line = run_in_child([&] {
    setenv("HETLB_SIMGRID_CFG", kExactNetwork, 1);
    const DiffusionResult r = simulate_diffusion(c);
    const auto& m = r.metrics;
    return to_line(Outcome{m.converged ? 1.0 : 0.0, double(m.converged_nodes), m.avg_convergence_date,
                           m.max_convergence_date, m.data_transfer_amount, double(m.data_messages),
                           double(m.ctrl_messages), double(m.computing_iterations), double(m.balancing_iterations),
                           m.avg_idle_time, m.simulated_time, r.fast_forwarded ? 1.0 : 0.0, r.final_loads,
                           r.convergence_dates});
  });
  return from_line(line, nodes);
}

struct Setting {
  std::string topology;
  int nodes;
  std::string strategy;
  double k;
  bool virt, integer;
  std::string initial;
  double ratio;
  diffusion::BalancingPhase lb_phase = diffusion::BalancingPhase::aligned;
  std::string name() const {
    return fmt::format("{} {} {}{}{}{} {} ratio {} {}", topology, nodes, strategy,
                       strategy == "besteffort" ? fmt::format(" k={}", k) : "",
                       virt ? " virtual" : "", integer ? " integer" : " real", initial, ratio,
                       diffusion::to_string(lb_phase));
  }
  DiffusionConfig config() const {
    DiffusionConfig c;
    c.nodes = nodes;
    c.topology = topology;
    c.strategy = diffusion::Strategy(strategy, k, integer);
    c.virtual_load = virt;
    c.initial = initial;
    c.ratio = ratio;
    c.seed = 7;
    c.lb_phase = lb_phase;
    c.convergence_iterations = 40;
    c.fast_forward = false;
    c.balance = diffusion::Balance::load;  // the reference model is the papers': load units
    return c;
  }
};

// Every strategy (best effort k = 1 and 2, makhoul, simple, first-order diffusion) with and without
// virtual load, on real and integer load, single and random initial load, ratios 1 and 0.1: 80
// settings, each on the next graph of 2 to 8 nodes in turn.
std::vector<Setting> matrix() {
  const std::vector<std::pair<std::string, int>> graphs{{"line", 2},      {"line", 5},  {"ring", 6},  {"complete", 4},
                                                        {"hypercube", 8}, {"torus", 6}, {"ring", 3},  {"torus", 8},
                                                        {"complete", 7},  {"torus", 4}, {"line", 8}};
  const std::vector<std::pair<std::string, double>> strategies{
      {"besteffort", 1}, {"besteffort", 2}, {"makhoul", 1}, {"simple", 1}, {"first_order", 1}};
  std::vector<Setting> settings;
  std::size_t g = 0;
  for (const auto& [kind, k] : strategies)
    for (bool virt : {false, true})
      for (bool integer : {false, true})
        for (const char* initial : {"single", "random"})
          for (double ratio : {1.0, 0.1}) {
            const auto& [topology, nodes] = graphs[g++ % graphs.size()];
            settings.push_back({topology, nodes, kind, k, virt, integer, initial, ratio});
          }
  return settings;
}

// Largest differences between two outcomes.
struct Gap {
  bool converged_differs = false;
  double dates = 0;     // convergence dates (average, maximum, every node's), seconds
  double amount = 0;    // data transfer amount, relative
  double messages = 0;  // data messages
  double loads = 0;     // final loads, relative to the average
  double counts = 0;    // control messages, computing and balancing iterations
  double idle = 0;      // average idle time and end of the run, seconds

  void widen(const Gap& o) {
    converged_differs = converged_differs || o.converged_differs;
    dates = std::max(dates, o.dates);
    amount = std::max(amount, o.amount);
    messages = std::max(messages, o.messages);
    loads = std::max(loads, o.loads);
    counts = std::max(counts, o.counts);
    idle = std::max(idle, o.idle);
  }
  std::string text() const {
    return fmt::format("converged {}, dates {:.2g} s, amount {:.2g}, data messages {}, loads {:.2g}, counts {}, idle {:.2g} s",
                       converged_differs ? "DIFFER" : "same", dates, amount, messages, loads, counts, idle);
  }
};

Gap gap(const Outcome& a, const Outcome& b, double average) {
  Gap g;
  g.converged_differs = a.converged != b.converged || a.converged_nodes != b.converged_nodes;
  auto date = [&](double x, double y) {
    if (std::isnan(x) != std::isnan(y)) g.converged_differs = true;
    if (!std::isnan(x) && !std::isnan(y)) g.dates = std::max(g.dates, std::abs(x - y));
  };
  date(a.avg_date, b.avg_date);
  date(a.max_date, b.max_date);
  for (std::size_t i = 0; i < b.dates.size(); ++i) date(a.dates[i], b.dates[i]);
  g.amount = std::abs(a.amount - b.amount) / std::max(1e-300, std::abs(b.amount));
  g.messages = std::abs(a.data_messages - b.data_messages);
  for (std::size_t i = 0; i < b.final_loads.size(); ++i)
    g.loads = std::max(g.loads, std::abs(a.final_loads[i] - b.final_loads[i]) / average);
  g.counts = std::abs(a.ctrl_messages - b.ctrl_messages) + std::abs(a.computing - b.computing) +
             std::abs(a.balancing - b.balancing);
  g.idle = std::max(std::abs(a.idle - b.idle), std::abs(a.end - b.end));
  return g;
}

// Same events in the same order: the same run, up to the clock's rounding. Counts (control
// messages, iterations) and idle time are compared only when the end is simulated in full.
bool exact(const Gap& g, bool with_counts) {
  return !g.converged_differs && g.dates <= kDateTolerance && g.amount <= kAmountTolerance && g.messages == 0 &&
         g.loads <= kLoadTolerance && (!with_counts || (g.counts == 0 && g.idle <= kDateTolerance));
}

// Same events, announcements added in another order: a last-bit difference of a virtual load can
// flip a comparison between two equal loads, and the runs part (seeds 1 to 10: convergence dates up
// to 2 s apart with `simple`). Only the outcome is compared.
bool same_outcome(const Gap& g) { return !g.converged_differs; }

struct Tally {
  int exact = 0, rounded = 0, skipped = 0, fast_forwarded = 0;
  Gap exact_gap, rounded_gap;
};

// Runs `settings` on both engines and compares them: exactly without ties, their outcome with
// rounding ties only; settings with an event tie are reported, not compared.
Tally compare(const std::vector<Setting>& settings, bool unit_speed, bool fast_forward) {
  const StarPlatform platform = star(8, unit_speed);
  const TempFile xml(star_xml(platform));
  Tally t;
  for (const Setting& s : settings) {
    DiffusionConfig c = s.config();
    const ReferenceResult reference = testing::run_reference(c, platform, Delivery::one_at_a_time);
    c.fast_forward = fast_forward;
    const Outcome sim = simulated(c, xml.path(), s.nodes);
    SCOPED_TRACE(s.name());
    const Gap g = gap(sim, of(reference), c.load_per_node);
    t.fast_forwarded += sim.fast_forwarded > 0;
    if (reference.event_ties > 0) {
      std::printf("not compared (%llu event ties): %s: %s\n", static_cast<unsigned long long>(reference.event_ties),
                  s.name().c_str(), g.text().c_str());
      std::fflush(stdout);  // before the next fork
      ++t.skipped;
    } else if (reference.rounding_ties > 0) {
      ++t.rounded;
      t.rounded_gap.widen(g);
      EXPECT_TRUE(same_outcome(g)) << g.text();
    } else {
      ++t.exact;
      t.exact_gap.widen(g);
      EXPECT_TRUE(exact(g, !fast_forward)) << g.text() << "\nsimulated: " << to_line(sim) << "\nreference: " << to_line(of(reference));
    }
  }
  std::printf("%d settings compared exactly (widest: %s)\n%d with rounding ties, same outcome (widest: %s)\n%d not compared\n",
              t.exact, t.exact_gap.text().c_str(), t.rounded, t.rounded_gap.text().c_str(), t.skipped);
  std::fflush(stdout);
  return t;
}

// The platform gives each transfer its constant time, even with transfers in both directions of a
// link and several into one host at once: what the reference assumes.
TEST(DiffusionIndependentCheck, TransfersTakeConstantTimes) {
  const StarPlatform p = star(4, false);
  const TempFile xml(star_xml(p));
  const std::string out = run_in_child([&] {
    setenv("HETLB_SIMGRID_CFG", kExactNetwork, 1);
    auto engine = detail::make_engine();
    engine->load_platform(xml.path());
    struct Flow {
      int from, to;
      double bytes, start;
    };
    const std::vector<Flow> flows{{3, 2, 71368863, 0}, {1, 3, 1e7, 0.1}, {2, 0, 1e7, 0.05}, {3, 0, 5e6, 0.2},
                                  {0, 2, 64, 0.3},     {1, 2, 3e6, 0.3}};
    static int payload = 0;
    std::string report;
    for (std::size_t f = 0; f < flows.size(); ++f) {
      const Flow flow = flows[f];
      simgrid::s4u::Mailbox* box = simgrid::s4u::Mailbox::by_name(fmt::format("flow-{}", f));
      simgrid::s4u::Actor::create("get", engine->host_by_name(fmt::format("node-{}", flow.to)), [box] { box->get<int>(); });
      simgrid::s4u::Actor::create("put", engine->host_by_name(fmt::format("node-{}", flow.from)), [=, &report, &p] {
        simgrid::s4u::this_actor::sleep_for(flow.start);
        box->put(&payload, static_cast<std::uint64_t>(flow.bytes));
        const double expected = flow.start + p.latency[flow.from] + p.latency[flow.to] +
                                flow.bytes / std::min(p.bandwidth[flow.from], p.bandwidth[flow.to]);
        report += fmt::format("{:.3g} ", simgrid::s4u::Engine::get_clock() - expected);
      });
    }
    engine->run();
    return report;
  });
  std::istringstream in(out);
  int flows = 0;
  for (std::string w; in >> w; ++flows) EXPECT_LE(std::abs(std::stod(w)), 1e-12) << out;
  EXPECT_EQ(flows, 6) << out;
}

TEST(DiffusionIndependentCheck, SimGridRunsMatchTheReferenceModel) {
  const Tally t = compare(matrix(), false, false);
  EXPECT_GE(t.exact, 48);  // the check covers the matrix, not only a few settings without ties
  EXPECT_LE(t.skipped, 8);
}

// Staggered balancing phases (each node's own, from the seed): the same agreement, and no structural
// tie between nodes' balancing dates any more.
TEST(DiffusionIndependentCheck, StaggeredPhasesMatchTheReferenceModel) {
  std::vector<Setting> settings;
  const std::vector<Setting> all = matrix();
  for (std::size_t i = 1; i < all.size(); i += 2) {
    Setting s = all[i];
    s.lb_phase = diffusion::BalancingPhase::staggered;
    settings.push_back(s);
  }
  const Tally t = compare(settings, false, false);
  EXPECT_GE(t.exact, 24);
}

// The computed end of the convergence streaks (fast_forward) gives the same metrics.
TEST(DiffusionIndependentCheck, ComputedStreakEndsMatchTheReferenceModel) {
  std::vector<Setting> settings;
  const std::vector<Setting> all = matrix();
  for (std::size_t i = 0; i < all.size(); i += 4) settings.push_back(all[i]);
  const Tally t = compare(settings, false, true);
  EXPECT_GE(t.exact + t.rounded, 14);
  EXPECT_GE(t.fast_forwarded, 8);  // the shortcut was taken
}

// Hosts of exactly 1 Gflop/s with random initial load (no structural tie): same agreement.
TEST(DiffusionIndependentCheck, UnitSpeedHostsMatchTheReferenceModel) {
  std::vector<Setting> settings;
  for (const Setting& s : matrix())
    if (s.initial == "random" && settings.size() < 16) settings.push_back(s);
  const Tally t = compare(settings, true, false);
  EXPECT_GE(t.exact, 8);
}

// The comparison tells channel disciplines apart: a SimGrid mailbox carries one transfer at a time,
// in order of sending; with every message arriving its constant time after it was sent instead, the
// reference's dates move by seconds on some settings.
TEST(DiffusionIndependentCheck, ChannelDisciplineMatters) {
  const StarPlatform platform = star(8, false);
  int differ = 0, total = 0;
  double widest = 0;
  for (const Setting& s : matrix()) {
    const DiffusionConfig c = s.config();
    const Outcome one = of(testing::run_reference(c, platform, Delivery::one_at_a_time));
    const Outcome each = of(testing::run_reference(c, platform, Delivery::per_message));
    const Gap g = gap(each, one, c.load_per_node);
    ++total;
    differ += exact(g, false) ? 0 : 1;
    widest = std::max(widest, g.dates);
  }
  std::printf("per-message delivery changes %d of %d settings, convergence dates by up to %.3g s\n", differ, total, widest);
  EXPECT_GT(differ, total / 2);
}

}  // namespace
}  // namespace hetlb::sim
