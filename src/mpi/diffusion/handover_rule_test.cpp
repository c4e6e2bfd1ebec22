// The bulk-synchronous hand-over rule (handover_rule.hpp) on NodeState values. The state that stalled a
// 5-rank ring: every rank holds 40 items, but one rank's real load is 39.5 (out of the 1% band) while its
// neighbour's is 40.25 and owes it a quarter of an item. Neither owes a whole item, so a rule counting
// only whole items never hands over, the quarter is never released, and the run never converges.
#include "handover_rule.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "hetlb/diffusion/convergence.hpp"
#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::mpi::detail {
namespace {

using diffusion::NodeState;
using diffusion::Report;

TEST(HandoverRule, OwedFractionToARankOutOfItsBandIsHandedOver) {
  const diffusion::ConvergenceTracker band(5, 40.0, 5);  // 1% of 40: [39.6, 40.4]
  NodeState low(39.5, 2, false), high(40.25, 2, false);
  // `high` hears of `low` (slot 0) and of a neighbour at 40 (slot 1), then decides.
  high.control_received(0, Report{39.5, 0, 0, 1});
  high.control_received(1, Report{40.0, 0, 0, 1});
  high.decide(diffusion::Strategy("simple"));
  ASSERT_GT(high.owed(0), 0);
  ASSERT_LT(high.owed(0), 1);  // less than an item
  const std::vector<double> no_carry(2, 0.0);
  const HandoverVote l = handover_vote(low, band.in_band(low.real()), no_carry, 40);
  const HandoverVote h = handover_vote(high, band.in_band(high.real()), no_carry, 40);
  EXPECT_TRUE(l.out_of_band);
  EXPECT_FALSE(l.owes_part);
  EXPECT_FALSE(l.owes_whole_item);
  EXPECT_FALSE(h.out_of_band);
  EXPECT_TRUE(h.owes_part);
  EXPECT_FALSE(h.owes_whole_item);
  EXPECT_TRUE(handover_agreed(0, 1, 1));
  // Released at the hand-over, the quarter brings `low` into its band.
  const double released = high.release(0);
  low.data_received(0, released);
  low.take_in();
  EXPECT_TRUE(band.in_band(low.real()));
}

TEST(HandoverRule, CarryAndOwedReachingAnItemIsAWholeItem) {
  NodeState s(10, 2, false);
  s.control_received(0, Report{9.4, 0, 0, 1});
  s.control_received(1, Report{10, 0, 0, 1});
  s.decide(diffusion::Strategy("simple"));
  const double owed = s.owed(0);
  ASSERT_GT(owed, 0);
  ASSERT_LT(owed, 1);
  EXPECT_FALSE(handover_vote(s, true, {0.0, 0.0}, 10).owes_whole_item);
  EXPECT_TRUE(handover_vote(s, true, {1 - owed, 0.0}, 10).owes_whole_item);
  EXPECT_FALSE(handover_vote(s, true, {1 - owed, 0.0}, 0).owes_whole_item);  // nothing held to send
}

// Balanced loads (every rank in its band): a rank owing its neighbours a fraction of an item, decision
// after decision, never votes for a hand-over and the sums never agree on one (items would move back
// and forth on a balanced run).
TEST(HandoverRule, BalancedRankOwingAFractionInItsBandNeverHandsOver) {
  const diffusion::ConvergenceTracker band(3, 40.0, 5);  // 1% of 40: [39.6, 40.4]
  NodeState s(40.3, 2, false);
  const std::vector<double> no_carry(2, 0.0);
  for (int call = 0; call < 10; ++call) {
    s.control_received(0, Report{39.8, 0, 0, 1});
    s.control_received(1, Report{39.9, 0, 0, 1});
    s.decide(diffusion::Strategy("simple"));
    ASSERT_GT(s.owed_total(), 0);
    ASSERT_LT(s.owed_total(), 1);  // less than an item in all
    const HandoverVote v = handover_vote(s, band.in_band(s.real()), no_carry, 40);
    EXPECT_FALSE(v.out_of_band);
    EXPECT_TRUE(v.owes_part);
    EXPECT_FALSE(v.owes_whole_item);
    // The neighbours, in their band, owe nothing: no rank out of its band, none owing a whole item.
    EXPECT_FALSE(handover_agreed(v.owes_whole_item ? 1 : 0, v.out_of_band ? 1 : 0, v.owes_part ? 1 : 0));
  }
}

TEST(HandoverRule, AgreedOnlyWhenAReleaseCanMoveLoad) {
  EXPECT_TRUE(handover_agreed(1, 0, 0));
  EXPECT_TRUE(handover_agreed(2, 3, 0));
  EXPECT_FALSE(handover_agreed(0, 0, 3));  // every rank in its band: parts can wait
  EXPECT_FALSE(handover_agreed(0, 2, 0));  // nothing owed: a hand-over would move nothing
  EXPECT_TRUE(handover_agreed(0, 1, 1));
}

// Hybrid: a hand-over is declined when whole items are owed and no rank owing one would give it
// (balance::handover_worth said no on each); with one rank giving, or nothing whole owed, the rule above
// decides.
TEST(HandoverRule, DeclinedOnlyWhenNoRankOwingAWholeItemWouldGiveIt) {
  EXPECT_TRUE(handover_declined(1, 0));
  EXPECT_TRUE(handover_declined(5, 0));
  EXPECT_FALSE(handover_declined(5, 1));
  EXPECT_FALSE(handover_declined(1, 1));
  EXPECT_FALSE(handover_declined(0, 0));  // parts only: handover_agreed decides
}

// The hybrid in a run the program ends: ranks out of their 1% band but within the margin of their
// shares, owing nothing (they decide nothing there), vote as in their band; the sums are then calm and
// the agreements back off (before, the sums kept an agreement at every call for an excess nobody moved).
TEST(HandoverRule, RanksWithinTheMarginVoteInBandAndTheAgreementsBackOff) {
  const diffusion::ConvergenceTracker band(4, 40.0, 5);  // 1% of 40: [39.6, 40.4]
  const std::vector<NodeState> ranks{NodeState(42, 2, false), NodeState(38, 2, false), NodeState(41, 2, false),
                                     NodeState(39, 2, false)};  // 5% off at most: within a 10% margin
  const std::vector<double> no_carry(2, 0.0);
  double out_of_band = 0, owing_whole = 0, owing_part = 0, out_without_margin = 0;
  for (const NodeState& r : ranks) {
    ASSERT_FALSE(band.in_band(r.real()));
    const HandoverVote v = handover_vote(r, band.in_band(r.real()), no_carry, 40, 1.0, true);
    out_of_band += v.out_of_band;
    owing_whole += v.owes_whole_item;
    owing_part += v.owes_part;
    out_without_margin += handover_vote(r, band.in_band(r.real()), no_carry, 40).out_of_band;
  }
  EXPECT_EQ(out_without_margin, 4);  // the rule without the margin: every rank out of its band
  EXPECT_EQ(out_of_band, 0);
  EXPECT_FALSE(handover_agreed(owing_whole, out_of_band, owing_part));
  const bool calm = out_of_band == 0;  // as bsp_iteration_done decides it (shares known, no step)
  long interval = 1;
  for (int i = 0; i < 4; ++i) interval = next_sync_interval(interval, 0, 8, calm);
  EXPECT_EQ(interval, 8);
  // Beyond the margin a rank is out of its band whatever: the agreements come at every call.
  EXPECT_TRUE(handover_vote(NodeState(48, 2, false), false, no_carry, 40, 1.0, false).out_of_band);
}

// Ranks out of their band owing nothing after a declined step are idle: the agreements may back off.
// Not before a consideration declined (a step may still come), nor while anything is owed.
TEST(HandoverRule, IdleOutOfBandOnlyAfterADeclinedStepAndWithNothingOwed) {
  EXPECT_TRUE(idle_out_of_band(true, 0, 0));
  EXPECT_FALSE(idle_out_of_band(false, 0, 0));
  EXPECT_FALSE(idle_out_of_band(true, 1, 1));
  EXPECT_FALSE(idle_out_of_band(true, 0, 2));  // parts of items owed: a hand-over releases them
  // In the agreement's verdict: 3 ranks out of band, nothing owed, shares known, no move this call.
  EXPECT_FALSE(agreement_calm(false, false, 3, true, false, false, 0, 0));  // no consideration declined yet
  EXPECT_TRUE(agreement_calm(false, false, 3, true, false, true, 0, 0));    // after one: back off
  EXPECT_FALSE(agreement_calm(true, false, 3, true, false, true, 0, 0));    // a step now: not calm
  EXPECT_FALSE(agreement_calm(false, true, 0, true, false, true, 0, 0));    // a hand-over now: not calm
  EXPECT_TRUE(agreement_calm(false, false, 0, true, false, false, 0, 1));   // in band: parts owed move nothing
  EXPECT_FALSE(agreement_calm(false, false, 0, false, false, false, 0, 0)); // shares not known yet
  EXPECT_TRUE(agreement_calm(false, false, 2, false, true, false, 1, 0));   // declined whole items
}

// The adaptive cadence: every call while anything is to be done, so nothing waits for an 8th call; then
// 2, 4, 8, 8 once calm; a set sync_interval stays as set.
TEST(HandoverRule, AdaptiveCadenceAgreesAtEveryCallUntilCalmThenBacksOff) {
  EXPECT_EQ(next_sync_interval(1, 0, 8, false), 1);
  EXPECT_EQ(next_sync_interval(8, 0, 8, false), 1);  // a rank leaves its band: back to every call
  long interval = 1;
  std::vector<long> seen;
  for (int i = 0; i < 5; ++i) seen.push_back(interval = next_sync_interval(interval, 0, 8, true));
  EXPECT_EQ(seen, (std::vector<long>{2, 4, 8, 8, 8}));
  EXPECT_EQ(next_sync_interval(1, 4, 8, false), 4);
  EXPECT_EQ(next_sync_interval(4, 4, 8, true), 4);
  EXPECT_EQ(next_sync_interval(1, 0, 1, true), 1);
}

// Cheap sums: a wait of at most 1% of a call's span (a balanced shared-memory run: microseconds in
// milliseconds); a grid's sums (tens of ms against iterations of a second) are not, nor is a wait when
// nothing is known of the span.
TEST(HandoverRule, ASumIsCheapWhenItsWaitIsAHundredthOfACallAtMost) {
  EXPECT_TRUE(agreement_cheap(20e-6, 7e-3));
  EXPECT_TRUE(agreement_cheap(0, 1e-3));
  EXPECT_TRUE(agreement_cheap(0.01, 1.0));
  EXPECT_FALSE(agreement_cheap(0.0101, 1.0));
  EXPECT_FALSE(agreement_cheap(0.05, 1.0));
  EXPECT_FALSE(agreement_cheap(0, 0));
}

}  // namespace
}  // namespace hetlb::mpi::detail
