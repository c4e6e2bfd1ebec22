// The time a campaign has left: each run left at the mean time of the timed runs most like it, never
// at the mean of cheaper ones, and the runs like none counted apart.
#include "time_left.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <numeric>

namespace hetlb::campaign {
namespace {

Spec two_sizes() {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_time_left_spec.json";
  std::ofstream(path) << R"({"spec_version": "t", "strategies": ["makhoul", "simple"], "virtual_load": [false],
    "integer": [false], "platforms": ["cluster"], "nodes": [16, 64], "topologies": ["line", "torus"],
    "initial": ["random"], "seeds": [1, 2], "ratios": [1]})";
  return read_spec(path);
}

std::size_t id(const Spec& spec, const std::string& strategy, int nodes, const std::string& topology, int seed) {
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    const Setting& s = spec.settings[i];
    if (s.value("strategy") == strategy && s.nodes == nodes && s.value("topology") == topology &&
        s.value("seed") == std::to_string(seed))
      return i;
  }
  throw std::runtime_error("no such setting");
}

std::vector<std::size_t> all(const Spec& spec) {
  std::vector<std::size_t> v(spec.settings.size());
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(CampaignTimeLeft, NothingTimedPromisesNothing) {
  const Spec spec = two_sizes();
  ASSERT_EQ(spec.settings.size(), 16u);
  const TimeLeft left(spec, all(spec), {}, 1);
  EXPECT_EQ(left.text(30), "30 s so far");
}

TEST(CampaignTimeLeft, EachRunAtTheMeanOfTheTimedRunsMostLikeIt) {
  const Spec spec = two_sizes();
  TimeLeft left(spec, all(spec), {}, 1);
  // A cheap run first: only the runs of its nodes and topology are estimated; the other 12 are unlike it.
  left.finished(id(spec, "makhoul", 16, "line", 1), 10);
  EXPECT_EQ(left.text(10), "10 s so far, about 30 s left and 12 runs unlike any timed yet");
  // The same setting on another seed goes by its own variant's time (60 s), not by the mean of both.
  left.finished(id(spec, "simple", 16, "line", 1), 60);
  EXPECT_EQ(left.text(70), "70 s so far, about 70 s left and 12 runs unlike any timed yet");
  // A 64-node torus run of 1 h: the 64-node torus runs left take that, not the 16-node runs' mean.
  left.finished(id(spec, "makhoul", 64, "torus", 1), 3600);
  EXPECT_EQ(left.text(3670), "61 min so far, about 3.0 h left and 8 runs unlike any timed yet");
}

TEST(CampaignTimeLeft, ResumedRowsAreTimesAndJobsShareTheRest) {
  const Spec spec = two_sizes();
  std::map<std::string, Row> rows;
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    if (spec.settings[i].value("seed") == "1") {
      rows[spec.settings[i].key].cells = {{"status", "ok"}, {"wall_seconds", spec.settings[i].nodes == 16 ? "2" : "50"}};
    } else {
      todo.push_back(i);
    }
  }
  // 4 runs of 2 s and 4 of 50 s left, on 2 jobs.
  TimeLeft left(spec, todo, rows, 2);
  EXPECT_EQ(left.text(0), "0 s so far, about 104 s left");
  // A row the campaign reruns (--retry: in the runs to do) is not a time to go by.
  rows[spec.settings[todo.front()].key].cells = {{"status", "timeout"}, {"wall_seconds", "100000"}};
  EXPECT_EQ(TimeLeft(spec, todo, rows, 2).text(0), "0 s so far, about 104 s left");
  // A row without a time (an older file's) is none.
  rows[spec.settings[id(spec, "simple", 64, "torus", 1)].key].cells.erase("wall_seconds");
  EXPECT_EQ(TimeLeft(spec, todo, rows, 2).text(0), "0 s so far, about 104 s left");
  for (std::size_t i : todo) left.finished(i, 1);
  EXPECT_EQ(left.text(100), "100 s in all");
}

// Two time limits: the runs to 40 tau are not timed by the runs to 10 tau, however alike otherwise.
TEST(CampaignTimeLeft, ARunToALaterDateIsNotTimedByAnEarlierOne) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/campaign_time_left_limits.json";
  std::ofstream(path) << R"({"spec_version": "t", "mode": "fixed_duration", "strategies": ["makhoul", "simple"],
    "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [16], "topologies": ["line"],
    "initial": ["random"], "seeds": [1, 2], "ratios": [1], "time_limit_tau": [10, 40]})";
  const Spec spec = read_spec(path);
  ASSERT_EQ(spec.settings.size(), 8u);
  TimeLeft left(spec, all(spec), {}, 1);
  EXPECT_EQ(left.estimate(), "");
  std::size_t first = spec.settings.size();
  for (std::size_t i = 0; i < spec.settings.size() && first == spec.settings.size(); ++i)
    if (spec.settings[i].value("strategy") == "makhoul" && spec.settings[i].value("seed") == "1" &&
        std::stod(spec.settings[i].value("time_limit")) < 20)
      first = i;
  ASSERT_LT(first, spec.settings.size());
  left.finished(first, 10);
  // Three runs to 10 tau at 10 s each; the four to 40 tau like none timed.
  EXPECT_EQ(left.estimate(), "about 30 s left and 4 runs unlike any timed yet");
  EXPECT_EQ(left.text(10), "10 s so far, about 30 s left and 4 runs unlike any timed yet");
}

}  // namespace
}  // namespace hetlb::campaign
