// Integer load with DASUD's rules: on lines, rings, tori and hypercubes, rounds of decisions (all
// nodes at once, or one node at a time in random order, as asynchronous nodes would) stop in a state
// where every domain is within one unit; hence within ceil(diameter / 2) units overall, and within
// the 1% band whenever that band is at least that wide.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/topology.hpp"

namespace hetlb::diffusion {
namespace {

std::vector<double> neighbour_loads(const Topology& t, const std::vector<double>& x, int i) {
  std::vector<double> nb;
  for (int j : t.neighbours[i]) nb.push_back(x[j]);
  return nb;
}

// Applies node i's decision to x; returns whether anything moved.
bool step(const Strategy& s, const Topology& t, std::vector<double>& x, int i) {
  const auto tr = balance(s, x[i], neighbour_loads(t, x, i));
  bool moved = false;
  for (std::size_t p = 0; p < tr.size(); ++p) {
    if (tr[p] <= 0) continue;
    x[i] -= tr[p];
    x[t.neighbours[i][p]] += tr[p];
    moved = true;
  }
  return moved;
}

double domain_spread(const Topology& t, const std::vector<double>& x, int i) {
  double lo = x[i], hi = x[i];
  for (int j : t.neighbours[i]) lo = std::min(lo, x[j]), hi = std::max(hi, x[j]);
  return hi - lo;
}

struct Outcome {
  bool stopped = false;
  std::vector<double> x;
};

// Random-order sweeps until a whole sweep moves nothing (at most `sweeps`).
Outcome run(const Strategy& s, const Topology& t, std::vector<double> x, std::uint64_t seed, int sweeps) {
  std::vector<int> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  std::uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (int k = t.size() - 1; k > 0; --k) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      std::swap(order[k], order[(state >> 33) % (k + 1)]);
    }
    bool moved = false;
    for (int i : order) moved = step(s, t, x, i) || moved;
    if (!moved) return {true, x};
  }
  return {false, x};
}

// A one-unit-per-hop gradient on a line: every edge differs by one unit, so rules 1 and 2 are stuck;
// rule 3 must flatten it to at most one unit per two hops (every domain within one unit).
TEST(Dasud, BreaksAOneUnitGradient) {
  const Topology t = line_topology(16);
  std::vector<double> x(16);
  for (int i = 0; i < 16; ++i) x[i] = 1000 + 8 - i;
  for (std::string kind : {"besteffort", "makhoul", "simple"}) {
    const Outcome o = run({kind, 1, true}, t, x, 1, 10000);
    ASSERT_TRUE(o.stopped) << kind;
    EXPECT_EQ(std::accumulate(o.x.begin(), o.x.end(), 0.0), std::accumulate(x.begin(), x.end(), 0.0));
    // Without rule 3 the gradient would not move at all.
    EXPECT_NE(o.x, x);
    for (int i = 0; i < 16; ++i) EXPECT_LE(domain_spread(t, o.x, i), 1) << kind << " node " << i;
    EXPECT_LE(*std::max_element(o.x.begin(), o.x.end()) - *std::min_element(o.x.begin(), o.x.end()),
              std::ceil(diameter(t) / 2.0));
  }
}

TEST(Dasud, RuleThreeForwardsOneUnitOnlyInsideAnUnbalancedDomain) {
  // x = 5, neighbours 4 and 6: domain spread 2, no edge of the node differs by 2: forward one unit.
  EXPECT_EQ(balance({"besteffort", 1, true}, 5, {6, 4}), (std::vector<double>{0, 1}));
  // Domain within one unit: nothing.
  EXPECT_EQ(balance({"besteffort", 1, true}, 5, {5, 4}), (std::vector<double>{0, 0}));
  // The node is the domain's minimum: its neighbours feed it, it sends nothing.
  EXPECT_EQ(balance({"besteffort", 1, true}, 4, {6, 4}), (std::vector<double>{0, 0}));
}

RC_GTEST_PROP(Dasud, EveryRunStopsWithDomainsWithinOneUnit, ()) {
  const std::string shape = *rc::gen::element<std::string>("line", "ring", "torus", "hypercube");
  const int n = shape == "hypercube" ? *rc::gen::element(2, 4, 8, 16, 32, 64)
                : shape == "torus"   ? *rc::gen::element(4, 6, 9, 16, 25, 36, 64)
                                     : *rc::gen::inRange(3, 40);
  const Topology t = make_topology(shape, n);
  const Strategy s{*rc::gen::element("besteffort", "makhoul", "simple"),
                   *rc::gen::element(1.0, 2.0, 4.0), true};
  const bool single = *rc::gen::arbitrary<bool>();
  std::vector<double> x(n, 0.0);
  if (single)
    x[0] = 1000.0 * n;
  else
    for (double& v : x) v = *rc::gen::inRange(0, 2000);
  const double total = std::accumulate(x.begin(), x.end(), 0.0);
  const Outcome o = run(s, t, x, *rc::gen::inRange<std::uint64_t>(0, 1000), 200000);
  RC_ASSERT(o.stopped);
  RC_ASSERT(std::accumulate(o.x.begin(), o.x.end(), 0.0) == total);
  for (int i = 0; i < n; ++i) RC_ASSERT(domain_spread(t, o.x, i) <= 1.0);
  const double spread = *std::max_element(o.x.begin(), o.x.end()) - *std::min_element(o.x.begin(), o.x.end());
  RC_ASSERT(spread <= std::ceil(diameter(t) / 2.0));
  // The band: every node within 1% of the average when 1% of the average is at least ceil(D / 2).
  const double average = total / n;
  if (0.01 * average >= std::ceil(diameter(t) / 2.0))
    for (double v : o.x) RC_ASSERT(std::abs(v - average) <= 0.01 * average);
}

}  // namespace
}  // namespace hetlb::diffusion
