// A campaign's progress text: durations in the unit a reader takes in at a glance.
#include "progress.hpp"

#include <gtest/gtest.h>

namespace hetlb::campaign {
namespace {

TEST(CampaignProgress, DurationsInReadableUnits) {
  EXPECT_EQ(duration_text(0), "0 s");
  EXPECT_EQ(duration_text(45.2), "45 s");
  EXPECT_EQ(duration_text(119), "119 s");
  EXPECT_EQ(duration_text(120), "2 min");
  EXPECT_EQ(duration_text(7199), "120 min");
  EXPECT_EQ(duration_text(7200), "2.0 h");
  EXPECT_EQ(duration_text(3.2 * 3600), "3.2 h");
}

}  // namespace
}  // namespace hetlb::campaign
