// The calibration's item sampler: within the range, across it, the same for the same seed.
#include "item_sampler.hpp"

#include <gtest/gtest.h>

#include <set>

namespace hetlb::calibrate {

TEST(ItemSampler, CoversTheRangeAndStaysInside) {
  ItemSampler s(1200, 7);
  long long lo = 1200, hi = -1;
  for (int k = 0; k < 2000; ++k) {
    const long long f = s.next_first(100);
    ASSERT_GE(f, 0);
    ASSERT_LE(f + 100, 1200);
    lo = std::min(lo, f), hi = std::max(hi, f);
  }
  EXPECT_LT(lo, 50);     // not the first items only
  EXPECT_GT(hi, 1050);   // up to the last ones
}

TEST(ItemSampler, SameSeedSameItems) {
  ItemSampler a(1 << 20, 3), b(1 << 20, 3), c(1 << 20, 4);
  bool differs = false;
  for (int k = 0; k < 10; ++k) {
    const long long x = a.next_first(10);
    EXPECT_EQ(x, b.next_first(10));
    differs = differs || x != c.next_first(10);
  }
  EXPECT_TRUE(differs);
}

TEST(ItemSampler, WithoutARangeTheFirstItems) {
  ItemSampler s(0, 1);
  EXPECT_EQ(s.next_first(500), 0);
  ItemSampler small(400, 1);
  EXPECT_EQ(small.next_first(500), 0);
  EXPECT_NE(s.describe().find("--sample-range"), std::string::npos);
}

}  // namespace hetlb::calibrate
