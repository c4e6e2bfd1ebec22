// Relative speeds and slowdowns as given: accepted forms, and every refusal naming its value.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>

#include "hetlb/diffusion/speed_inputs.hpp"
#include "hetlb/diffusion/time_imbalance.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(SpeedInputs, ListsAndFiles) {
  EXPECT_EQ(read_speeds("1,1,2,4", 4), (std::vector<double>{1, 1, 2, 4}));
  EXPECT_EQ(read_speeds("2.5", 0), (std::vector<double>{2.5}));
  const std::string path = std::string(HETLB_BINARY_DIR) + "/speeds_test.txt";
  std::ofstream(path) << "# relative speeds\n1 2\n0.5  # slow\n\n4\n";
  EXPECT_EQ(read_speeds(path, 4), (std::vector<double>{1, 2, 0.5, 4}));
  EXPECT_EQ(read_speeds(path, 0).size(), 4u);
}

TEST(SpeedInputs, RefusesBadSpeedsNamingThem) {
  for (const char* bad : {"0", "-1", "nan", "inf", "1,,2", "x"})
    EXPECT_NE(refusal([&] { read_speeds(std::string("1,") + bad, 0); }).find("expected a finite relative speed > 0"),
              std::string::npos)
        << bad;
  EXPECT_EQ(refusal([] { read_speeds("1,2,3", 4); }), "--speeds 1,2,3: 3 speeds for 4 nodes; expected one relative speed per node");
  const std::string path = std::string(HETLB_BINARY_DIR) + "/speeds_bad.txt";
  std::ofstream(path) << "1\n2 0\n";
  EXPECT_EQ(refusal([&] { read_speeds(path, 0); }), path + ":2: speed \"0\"; expected a finite relative speed > 0");
  EXPECT_NE(refusal([] { read_speeds("/no/such/speeds", 0); }).find("no such file"), std::string::npos);
}

TEST(SpeedInputs, Slowdowns) {
  const Slowdown s = parse_slowdown("3:2.5:10:20.5");
  EXPECT_EQ(s.node, 3);
  EXPECT_EQ(s.factor, 2.5);
  EXPECT_EQ(s.start, 10);
  EXPECT_EQ(s.end, 20.5);
  EXPECT_NE(refusal([] { parse_slowdown("3:2:10"); }).find("expected NODE:FACTOR:START:END"), std::string::npos);
  EXPECT_NE(refusal([] { parse_slowdown("-1:2:0:1"); }).find("node \"-1\""), std::string::npos);
  EXPECT_NE(refusal([] { parse_slowdown("1:0:0:1"); }).find("factor \"0\"; expected a finite factor > 0"), std::string::npos);
  EXPECT_NE(refusal([] { parse_slowdown("1:-2:0:1"); }).find("factor \"-2\""), std::string::npos);
  EXPECT_NE(refusal([] { parse_slowdown("1:2:5:4"); }).find("ends at 4 s, not after its start at 5 s"), std::string::npos);
  EXPECT_NE(refusal([] { parse_slowdown("1:2:5:5"); }).find("expected START < END"), std::string::npos);
  std::vector<Slowdown> ok{parse_slowdown("1:2:0:5"), parse_slowdown("1:3:5:9"), parse_slowdown("2:2:0:9")};
  EXPECT_EQ(refusal([&] { check_slowdowns(ok, 3); }), "accepted");
  EXPECT_EQ(refusal([&] { check_slowdowns(ok, 2); }), "--slowdown 2:2:0:9: node 2; expected a node from 0 to 1");
  ok.push_back(parse_slowdown("1:2:8:12"));
  EXPECT_EQ(refusal([&] { check_slowdowns(ok, 3); }),
            "--slowdown 1:3:5:9 and --slowdown 1:2:8:12: overlap on node 1; expected disjoint intervals on one node");
}

// max_i(x_i / s_i) / (sum x / sum s): 1 on speed-proportional shares, max / average with equal speeds.
TEST(TimeImbalance, IsTheSlowestFinishOverTheBalancedOne) {
  EXPECT_DOUBLE_EQ(time_imbalance({10, 20, 40}, {1, 2, 4}), 1.0);
  EXPECT_DOUBLE_EQ(time_imbalance({10, 20, 30}, {1, 1, 1}), 30.0 / 20.0);
  EXPECT_DOUBLE_EQ(time_imbalance({30, 30}, {1, 2}), (30.0 / 1) / (60.0 / 3));
  EXPECT_DOUBLE_EQ(time_imbalance({0, 0}, {1, 2}), 1.0);
}

}  // namespace
}  // namespace hetlb::diffusion
