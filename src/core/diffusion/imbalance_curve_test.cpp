// The imbalance curve against values computed by hand on two nodes.
#include <gtest/gtest.h>

#include "hetlb/diffusion/imbalance_curve.hpp"

namespace hetlb::diffusion {
namespace {

// Node 0 holds 4 units until date 1, when it sends 2 to node 1 (two changes of one date: the reading
// at date 1 is the one after both). The run ends at 4.
ImbalanceValues two_nodes(const std::vector<double>& speeds, std::vector<SpeedChange> changes = {}) {
  ImbalanceCurve c({4, 0}, speeds, {10, 0, 1.5, 1, 3, 2}, std::move(changes));
  c.set_load(0, 2, 1);
  EXPECT_DOUBLE_EQ(c.load_imbalance(), 2);  // 2 units in flight: the held ones are not balanced yet
  c.set_load(1, 2, 1);
  return c.finish(4, {2, 2});
}

TEST(ImbalanceCurve, LoadImbalanceAtDatesAndItsIntegral) {
  const ImbalanceValues v = two_nodes({1, 1});
  // [0, 1): max 4 / average 2 = 2; [1, 4): 1. Area: 2 * 1 + 1 * 3.
  EXPECT_EQ(v.dates, (std::vector<double>{10, 0, 1.5, 1, 3, 2}));
  EXPECT_EQ(v.load_at, (std::vector<double>{1, 2, 1, 1, 1, 1}));
  EXPECT_DOUBLE_EQ(v.load_integral, 5);
  EXPECT_EQ(v.time_at, v.load_at);  // equal speeds: the same curve
  EXPECT_DOUBLE_EQ(v.time_integral, 5);
}

TEST(ImbalanceCurve, TimeImbalanceFollowsSpeedsAndTheirChanges) {
  // Speeds 1 and 3: [0, 1): max(4/1, 0/3) / (4/4) = 4; [1, 4): max(2/1, 2/3) / 1 = 2.
  ImbalanceValues v = two_nodes({1, 3});
  EXPECT_EQ(v.time_at, (std::vector<double>{2, 4, 2, 2, 2, 2}));
  EXPECT_DOUBLE_EQ(v.time_integral, 4 * 1 + 2 * 3);
  EXPECT_DOUBLE_EQ(v.load_integral, 5);  // the load view ignores speeds
  // Node 1 slowed to speed 1 from date 2: [2, 4): max(2, 2) / (4/2) = 1; read at 2, after the change.
  v = two_nodes({1, 3}, {{2, 1, 1}});
  EXPECT_EQ(v.time_at, (std::vector<double>{1, 4, 2, 2, 1, 1}));
  EXPECT_DOUBLE_EQ(v.time_integral, 4 * 1 + 2 * 1 + 1 * 2);
}

TEST(ImbalanceCurve, NoLoadIsBalancedAndDatesAfterTheEndReadTheFinalLoads) {
  ImbalanceCurve empty({0, 0}, {1, 1}, {0.5});
  const ImbalanceValues e = empty.finish(2, {0, 0});
  EXPECT_EQ(e.load_at, std::vector<double>{1});
  EXPECT_DOUBLE_EQ(e.load_integral, 2);
  // Nothing changes during the run; data in flight at the end arrives after it: read at date 3 only.
  ImbalanceCurve c({3, 1}, {1, 1}, {2, 3});
  const ImbalanceValues v = c.finish(2, {2, 2});
  EXPECT_EQ(v.load_at, (std::vector<double>{1.5, 1}));
  EXPECT_DOUBLE_EQ(v.load_integral, 3);
}

}  // namespace
}  // namespace hetlb::diffusion
