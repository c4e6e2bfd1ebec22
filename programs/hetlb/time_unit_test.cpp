#include "time_unit.hpp"

#include <gtest/gtest.h>

namespace hetlb::cli {

TEST(TimeUnit, ChosenFromTheLargestTime) {
  EXPECT_STREQ(time_unit_for(2.5).name, "s");
  EXPECT_STREQ(time_unit_for(2.5e-3).name, "ms");
  EXPECT_STREQ(time_unit_for(7.3e-6).name, "us");
  EXPECT_STREQ(time_unit_for(4e-9).name, "ns");
  EXPECT_STREQ(time_unit_for(0).name, "s");
  EXPECT_EQ(unit_line(time_unit_for(1e-5)), "times in us\n");
  EXPECT_EQ(unit_line(time_unit_for(3)), "");
}

TEST(TimeUnit, HugeTimesStayOneCellWithTheUnitsExponent) {
  const TimeUnit us = time_unit_for(1e-5);
  EXPECT_EQ(time_text(7.298e-6, us), "7.298");
  EXPECT_EQ(time_text(1e303, us), "1.000e+309");        // 1e309 us is past the largest double
  EXPECT_EQ(time_text(9.9996e303, us), "1.000e+310");   // the mantissa rounds up: one more in the exponent
  EXPECT_EQ(time_text(-2.5e12, time_unit_for(1)), "-2.500e+12");
  EXPECT_EQ(time_text(1.5e5, us, 1), "1.5e+11");
}

}  // namespace hetlb::cli
