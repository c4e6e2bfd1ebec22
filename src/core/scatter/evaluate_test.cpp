// Equations (1) and (2) on a schedule computed by hand.
#include <gtest/gtest.h>

#include "hetlb/scatter/evaluate.hpp"

namespace hetlb::scatter {

TEST(Evaluate, HandComputedSchedule) {
  Problem pb;
  pb.items = 10;
  pb.names = {"A", "B", "root"};
  pb.platform_index = {0, 1, 2};
  pb.comm = {CostFunction::linear(1), CostFunction::affine(2, 0.5), CostFunction::linear(0)};
  pb.compute = {CostFunction::linear(3), CostFunction::linear(1), CostFunction::affine(1, 2)};
  const Schedule s = evaluate(pb, {2, 4, 4});
  // A: receives [0, 2], computes 6 -> 8. B: receives [2, 2 + 2 + 2 = 6], computes 4 -> 10.
  // root: sends until 6, computes 1 + 8 = 9 -> 15.
  EXPECT_DOUBLE_EQ(s.shares[0].comm_end, 2);
  EXPECT_DOUBLE_EQ(s.shares[0].finish, 8);
  EXPECT_DOUBLE_EQ(s.shares[1].comm_start, 2);
  EXPECT_DOUBLE_EQ(s.shares[1].comm_end, 6);
  EXPECT_DOUBLE_EQ(s.shares[1].finish, 10);
  EXPECT_DOUBLE_EQ(s.shares[2].comm_end, 6);
  EXPECT_DOUBLE_EQ(s.shares[2].finish, 15);
  EXPECT_DOUBLE_EQ(s.makespan, 15);
  EXPECT_DOUBLE_EQ(s.first_finish, 8);
  EXPECT_DOUBLE_EQ(s.shares[1].idle, 2 + 5);  // waits 2, then idle from 10 to 15
  EXPECT_DOUBLE_EQ(s.shares[2].idle, 0);
  // A processor with no items costs nothing (T(0) = 0, no latency).
  EXPECT_DOUBLE_EQ(makespan(pb, {0, 0, 10}), 21);
}

}  // namespace hetlb::scatter
