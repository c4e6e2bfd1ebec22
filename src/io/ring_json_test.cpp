// Ring files: accepted shapes, and one clear line for each kind of bad input.
#include <gtest/gtest.h>

#include "hetlb/error.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/verify.hpp"

using namespace hetlb;

namespace {
std::string error_of(const std::string& text, bool bidi = false) {
  try {
    io::parse_ring_json(text, "f.json", bidi);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ringJson, ReadsScalarsArraysAndUnbalance) {
  const ring::Ring a = io::parse_ring_json(R"({"loads": [3, 1, 2], "targets": [2, 2, 2], "succ_cost": 1.5, "note": "x"})");
  EXPECT_EQ(a.succ_cost, (std::vector<double>{1.5, 1.5, 1.5}));
  EXPECT_FALSE(a.bidirectional());
  const ring::Ring b = io::parse_ring_json(R"({"loads": [3, 1, 2], "unbalance": [1, -1, 0], "succ_cost": [1, 2, 3], "pred_cost": 2})");
  EXPECT_EQ(b.targets, (std::vector<Count>{2, 2, 2}));
  EXPECT_EQ(b.pred_cost, (std::vector<double>{2, 2, 2}));
  const ring::Ring c = io::parse_ring_json(R"({"loads": [3, 1, 2], "targets": [2, 2, 2], "succ_cost": [1, 2, 3]})", "f", true);
  EXPECT_EQ(c.pred_cost, (std::vector<double>{3, 1, 2}));  // the same link both ways
}

// Whole numbers written as floats (40.0, 1e3: Python's and numpy's way) are read as those integers.
TEST(ringJson, ReadsWholeNumbersWrittenAsFloats) {
  const ring::Ring r = io::parse_ring_json(R"({"loads": [40.0, 1e1, 0.0], "unbalance": [2e1, -1e1, -10.0], "succ_cost": 1})");
  EXPECT_EQ(r.loads, (std::vector<Count>{40, 10, 0}));
  EXPECT_EQ(r.targets, (std::vector<Count>{20, 20, 10}));
  const ring::Ring big = io::parse_ring_json(R"({"loads": [9007199254740992.0, 0], "targets": [0, 9007199254740992], "succ_cost": 1})");
  EXPECT_EQ(big.loads[0], Count{1} << 53);
}

TEST(ringJson, BadInputIsOneClearLine) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {R"({"loads": [1, 2, 3], "targets": [2, 2], "succ_cost": 1})", "targets: 2 values for 3 loads"},
      {R"({"loads": [1, 2, 3], "targets": [2, 2, 3], "succ_cost": 1})", "targets: sum 7 differs from the loads' sum 6"},
      {R"({"loads": [1, -2, 3], "targets": [1, 1, 0], "succ_cost": 1})", "loads[1]: value -2 is negative"},
      {R"({"loads": [1, 2], "targets": [2, 1], "succ_cost": -1})", "succ_cost: value -1 is not a cost"},
      {R"({"loads": [1, 2], "targets": [2, 1], "succ_cost": [1, 0]})", "succ_cost[1]: value 0 is not a cost"},
      // Dates would overflow to inf (the plan printed a null time, and exit 0).
      {R"({"loads": [5, 0, 0], "targets": [0, 0, 5], "succ_cost": 1e308})", "dates beyond the largest double"},
      {R"({"loads": [5, 0], "targets": [0, 5], "succ_cost": 1e300, "pred_cost": 1e307})", "5 items over links whose costs add up to 2e+307"},
      {R"({"loads": [1, 2], "targets": [2, 1], "succ_cost": 1, "pred_cost": [1, 1, 1]})", "pred_cost: 3 values for 2"},
      {R"({"loads": [3], "targets": [3], "succ_cost": 1})", "loads: 1 processor(s); expected at least 2"},
      {R"({"loads": [1, "2"], "targets": [2, 1], "succ_cost": 1})", "loads[1]: expected an integer >= 0, got \"2\""},
      {R"({"loads": [1, 2.5], "targets": [2, 1], "succ_cost": 1})", "loads[1]: expected an integer"},
      {R"({"loads": [1, 1e300], "targets": [2, 1], "succ_cost": 1})", "loads[1]: expected an integer >= 0 (a float must be whole, at most 2^53), got 1e+300"},
      {R"({"loads": [1, 18446744073709551615], "targets": [2, 1], "succ_cost": 1})", "loads[1]: value 18446744073709551615 is out of range"},
      {R"({"loads": [1, 4611686018427387904], "targets": [2, 1], "succ_cost": 1})", "loads[1]: value 4611686018427387904 is out of range"},
      {R"({"loads": [1, -2.0], "targets": [2, 1], "succ_cost": 1})", "loads[1]: value -2 is negative"},
      {R"({"loads": [1, 2], "targets": [2, 1], "succ_cost": "fast"})", "succ_cost: expected a number or an array"},
      {R"({"loads": [1, 2], "unbalance": [3, -3], "succ_cost": 1})", "unbalance[0]: 3 exceeds loads[0] = 1"},
      {R"({"loads": [1, 2], "unbalance": [1, 0], "succ_cost": 1})", "unbalance: sum 1; expected 0"},
      {R"({"loads": [1, 2], "succ_cost": 1})", "targets: missing"},
      {R"({"loads": [1, 2], "targets": [2, 1]})", "succ_cost: missing"},
      {R"({"loads": [1, 2], )", "malformed JSON"},
      {R"([1, 2])", "expected a JSON object"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string e = error_of(text);
    EXPECT_NE(e.find(expected), std::string::npos) << text << "\n got: " << e;
    EXPECT_EQ(e.rfind("f.json: ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(ringJson, PlanRoundTripsThroughTheScheduleReader) {
  const ring::Ring r = io::parse_ring_json(R"({"loads": [9, 1, 1, 1], "targets": [3, 3, 3, 3], "succ_cost": [1, 2, 1, 3], "pred_cost": [2, 1, 1, 1]})");
  const ring::Plan p = ring::plan_redistribution(r);
  const std::string text = io::ring_plan_json(r, p, true);
  const io::RingSchedule s = io::parse_ring_schedule_json(text, r);
  ASSERT_EQ(s.transfers.size(), p.transfers.size());
  EXPECT_EQ(s.time, p.time);
  EXPECT_EQ(ring::verify_schedule(r, s.transfers, s.time), std::nullopt);
  for (const char* key : {"\"algorithm\"", "\"time\"", "\"lower_bound\"", "\"optimal\"", "\"transfers\"", "\"final_loads\""})
    EXPECT_NE(text.find(key), std::string::npos) << key;
}
