// A campaign's progress text: durations in the unit a reader takes in at a glance, and the time left.
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

TEST(CampaignProgress, TimeLeftIsTheMeanRunTimesTheRunsLeft) {
  EXPECT_EQ(time_left_text(600, 10, 40), "10 min so far, about 30 min left");
  EXPECT_EQ(time_left_text(90, 1, 181), "90 s so far, about 4.5 h left");
  EXPECT_EQ(time_left_text(30, 0, 5), "30 s so far");
  EXPECT_EQ(time_left_text(720, 5, 5), "12 min in all");
}

}  // namespace
}  // namespace hetlb::campaign
