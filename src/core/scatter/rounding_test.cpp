// RR-4770 Section 3.3: the rounding scheme keeps the sum and moves every share by less than one.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

RC_GTEST_PROP(Rounding, KeepsSumAndMovesLessThanOne, ()) {
  const auto raw = *rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 100000)));
  const double total = std::accumulate(raw.begin(), raw.end(), 0.0);
  RC_PRE(total > 0);
  const Count n = *rc::gen::inRange<Count>(1, 1'000'000);
  std::vector<double> shares;
  for (int v : raw) shares.push_back(v / total * static_cast<double>(n));
  const std::vector<Count> out = round_shares(shares, n);
  RC_ASSERT(std::accumulate(out.begin(), out.end(), Count{0}) == n);
  for (std::size_t i = 0; i < out.size(); ++i) {
    RC_ASSERT(out[i] >= 0);
    RC_ASSERT(std::abs(static_cast<double>(out[i]) - shares[i]) < 1.0 + 1e-6);
  }
}

TEST(Rounding, FollowsThePaperScheme) {
  // 2.9 is nearest to an integer: rounded up first (error +0.1); then 1.3, nearest to its floor,
  // goes down (error -0.2); the last share, 1.8, takes what is left: 2.
  EXPECT_EQ(round_shares({1.3, 2.9, 1.8}, 6), (std::vector<Count>{1, 3, 2}));
  // Integers stay as they are.
  EXPECT_EQ(round_shares({4.0, 0.0, 2.0}, 6), (std::vector<Count>{4, 0, 2}));
  // With e < 0 the share nearest to its ceiling goes up: 0.2 first (down, e = -0.2), then 0.6 up.
  EXPECT_EQ(round_shares({0.2, 0.6, 0.2}, 1), (std::vector<Count>{0, 1, 0}));
}

// A degenerate relaxation (a zero or negative cost) must be refused, not cast to an integer.
TEST(Rounding, RefusesSharesThatAreNotCounts) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(round_shares({inf, 1.0}, 2), Error);
  EXPECT_THROW(round_shares({std::nan(""), 1.0}, 2), Error);
  EXPECT_THROW(round_shares({1e30, -1e30}, 2), Error);
}

}  // namespace hetlb::scatter
