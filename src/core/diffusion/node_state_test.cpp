// A node's shared state: post-conditions of a decision as seen by the node, repeated decisions on an
// unchanged view, acknowledgements, virtual load and the bookkeeping of owed load.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "hetlb/diffusion/node_state.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// Best effort with k = 1 (Section 3): after a decision the node and every selected neighbour are at
// the prefix mean, as the node sees them; with k > 1 each selected neighbour gets 1/k of the way.
RC_GTEST_PROP(NodeState, BestEffortPostConditionsInTheNodesView, ()) {
  const double k = *rc::gen::element(1.0, 2.0, 4.0);
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 5000)));
  const double load = *rc::gen::inRange(0, 5000);
  NodeState s(load, static_cast<int>(raw.size()), *rc::gen::arbitrary<bool>());
  for (std::size_t p = 0; p < raw.size(); ++p) s.control_received(static_cast<int>(p), Report{double(raw[p]), 0, 0});
  const std::vector<double> before(raw.begin(), raw.end());
  const double own = s.own_view();
  const auto t = s.decide({"besteffort", k, false});
  const double given = sum(t);
  int selected = 0;
  double selected_sum = 0;
  for (std::size_t p = 0; p < t.size(); ++p)
    if (t[p] > 0) ++selected, selected_sum += before[p];
  if (selected == 0) return;
  const double mean = (own + selected_sum) / (selected + 1);
  if (k == 1) RC_ASSERT(std::abs(s.own_view() - mean) <= 1e-9 * (1 + mean));
  RC_ASSERT(std::abs(s.own_view() - (own - given)) <= 1e-9 * (1 + own));
  for (std::size_t p = 0; p < t.size(); ++p) {
    if (!(t[p] > 0)) continue;
    RC_ASSERT(before[p] < own);
    RC_ASSERT(before[p] < mean);
    // The estimate of j now includes what was decided for it.
    RC_ASSERT(std::abs(s.estimate(static_cast<int>(p)) - (before[p] + (mean - before[p]) / k)) <= 1e-9 * (1 + mean));
  }
}

// The stale view that made "simple" send everything to one neighbour: without news from the
// neighbours, later decisions on the same view account for what was promised. Best effort and
// Makhoul then send nothing more; "simple" feeds the next lightest neighbour, never the same one twice,
// and never more than half of what the previous decision sent.
TEST(NodeState, LaterDecisionsOnAnUnchangedViewAccountForPromises) {
  for (std::string kind : {"simple", "besteffort", "makhoul"}) {
    NodeState s(64000, 4, false);
    for (int p = 0; p < 4; ++p) s.control_received(p, Report{0, 0, 0});
    double last = sum(s.decide({kind, 1, false}));
    EXPECT_GT(last, 0) << kind;
    std::vector<int> fed(4, 0);
    for (int again = 0; again < 10; ++again) {
      const auto t = s.decide({kind, 1, false});
      for (int p = 0; p < 4; ++p) fed[p] += t[p] > 0;
      if (kind != "simple") {
        EXPECT_EQ(sum(t), 0) << kind;
      }
      EXPECT_LE(sum(t), last / 2) << kind;
      if (sum(t) > 0) last = sum(t);
    }
    for (int p = 0; p < 4; ++p) EXPECT_LE(fed[p], 1) << kind;
    if (kind != "simple") {
      EXPECT_NEAR(s.own_view(), 12800, 1e-9) << kind;
    }
  }
}

TEST(NodeState, LiteralEstimatesResendOnAStaleView) {
  NodeState s(64000, 4, false, Estimates::reported);
  for (int p = 0; p < 4; ++p) s.control_received(p, Report{0, 0, 0});
  double owed = 0;
  for (int again = 0; again < 20; ++again) owed += sum(s.decide({"simple", 1, false}));
  EXPECT_GT(owed, 0.99 * 64000);  // the behaviour the "accounted" default removes
}

TEST(NodeState, AcknowledgementsRetireWhatWasDecided) {
  NodeState s(100, 1, false);
  s.control_received(0, Report{0, 0, 0});
  EXPECT_EQ(s.decide({"besteffort", 1, false}), (std::vector<double>{50}));
  EXPECT_EQ(s.estimate(0), 50);
  s.take_in();
  EXPECT_EQ(s.release(0), 50);
  EXPECT_EQ(s.real(), 50);
  EXPECT_EQ(s.owed(0), 0);
  // The neighbour reports before the data arrived (accounted 0): still 50 in the estimate.
  s.control_received(0, Report{0, 0, 0});
  EXPECT_EQ(s.estimate(0), 50);
  // Then after: its load includes the 50 it acknowledges.
  s.control_received(0, Report{50, 0, 50});
  EXPECT_EQ(s.estimate(0), 50);
  EXPECT_EQ(s.decide({"besteffort", 1, false}), (std::vector<double>{0}));
}

TEST(NodeState, ReportsAccountForReceivedData) {
  NodeState s(10, 2, false);
  s.data_received(1, 30);
  EXPECT_EQ(s.own_view(), 40);  // received, not yet taken in, already counted
  EXPECT_EQ(s.report(1).accounted, 30);
  EXPECT_EQ(s.report(0).accounted, 0);
  s.take_in();
  EXPECT_EQ(s.real(), 40);
  EXPECT_EQ(s.pending(), 0);
}

TEST(NodeState, VirtualLoadCountsAnnouncementsAtOnce) {
  NodeState s(0, 2, true);
  s.control_received(0, Report{40, 60, 0});  // neighbour 0 announces 60 units for us
  EXPECT_EQ(s.own_view(), 60);
  EXPECT_EQ(s.report(0).accounted, 60);
  s.control_received(1, Report{0, 0, 0});
  const auto t = s.decide({"besteffort", 1, false});
  EXPECT_EQ(t, (std::vector<double>{0, 30}));  // decided before any data arrived
  EXPECT_EQ(s.report(1).announced, 30);
  EXPECT_EQ(s.report(0).announced, 0);
  s.take_in();
  EXPECT_EQ(s.release(1), 0);  // nothing held yet: stays owed
  s.data_received(0, 60);
  s.take_in();
  EXPECT_EQ(s.release(1), 30);
  EXPECT_EQ(s.real(), 30);
  EXPECT_EQ(s.own_view(), 30);
}

// Whatever the order of events, what leaves (released) plus what stays equals what came in.
RC_GTEST_PROP(NodeState, ReleasesConserveLoad, ()) {
  const bool virt = *rc::gen::arbitrary<bool>();
  NodeState s(*rc::gen::inRange(0, 1000), 3, virt);
  double in = s.real(), out = 0;
  const int steps = *rc::gen::inRange(1, 60);
  for (int i = 0; i < steps; ++i) {
    switch (*rc::gen::inRange(0, 4)) {
      case 0: {
        const double a = *rc::gen::inRange(0, 100);
        s.data_received(*rc::gen::inRange(0, 3), a);
        in += a;
        break;
      }
      case 1:
        s.control_received(*rc::gen::inRange(0, 3), Report{double(*rc::gen::inRange(0, 1000)), 0, 0});
        break;
      case 2: s.decide({"besteffort", 1, true}); break;
      default:
        s.take_in();
        for (int p = 0; p < 3; ++p) out += s.release(p);
    }
  }
  s.take_in();
  RC_ASSERT(s.real() + out == in);
  RC_ASSERT(s.real() >= 0);
}

TEST(NodeState, EstimateNames) {
  EXPECT_EQ(parse_estimates("reported"), Estimates::reported);
  EXPECT_EQ(to_string(parse_estimates("accounted")), "accounted");
  EXPECT_THROW(parse_estimates("stale"), Error);
}

}  // namespace
}  // namespace hetlb::diffusion
