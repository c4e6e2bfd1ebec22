// The bulk-synchronous stall limit (stall_watch.hpp): none before the program's pace is known, then
// max(5 s, 10 x the longest time between two calls), a set value as set, and past the time limit at
// most max(5 s, 2 x that time).
#include "stall_watch.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace hetlb::mpi::detail {
namespace {

TEST(StallWatch, NoLimitBeforeTheFourthCall) {
  StallWatch w;
  w.start(0);
  for (int i = 1; i <= 3; ++i) w.call(0.01 * i);
  EXPECT_TRUE(std::isinf(w.limit(0, false)));
  w.call(0.04);
  EXPECT_DOUBLE_EQ(w.limit(0, false), kStallFloorSeconds);  // iterations of 10 ms: the floor
}

TEST(StallWatch, TenTimesTheLongestTimeBetweenCalls) {
  StallWatch w;
  w.start(0);
  const double dates[] = {0.5, 1.0, 3.0, 3.5};  // one step of 2 s
  for (double d : dates) w.call(d);
  EXPECT_DOUBLE_EQ(w.limit(0, false), 20.0);
  EXPECT_DOUBLE_EQ(w.limit(0, true), 5.0);  // past the time limit: 2 x, at least the floor
  EXPECT_DOUBLE_EQ(w.limit(5, false), 5.0);
  EXPECT_TRUE(std::isinf(w.limit(-1, false)));
  EXPECT_DOUBLE_EQ(w.limit(-1, true), 5.0);  // "never", but the time limit still ends the run
}

}  // namespace
}  // namespace hetlb::mpi::detail
