// hetlb simulate ring: random rings of every kind, planned and replayed item by item on SimGrid; the
// simulated dates equal the plan's (the schedules are executable as planned) and the items arrive.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../tests/cli/run_command.hpp"

namespace hetlb::testing {

namespace {
std::string random_ring(std::mt19937& rng, int n, bool bidirectional, bool heterogeneous) {
  std::uniform_int_distribution<int> load(1, 12);
  std::uniform_int_distribution<int> cost(1, 4);
  std::vector<int> loads, targets(n, 1);
  int total = 0;
  for (int i = 0; i < n; ++i) total += loads.emplace_back(load(rng));
  std::uniform_int_distribution<int> who(0, n - 1);
  for (int k = n; k < total; ++k) ++targets[who(rng)];
  std::vector<double> succ, pred;
  for (int i = 0; i < n; ++i) {
    succ.push_back(heterogeneous ? cost(rng) / 2.0 : 1.0);
    pred.push_back(heterogeneous ? cost(rng) / 2.0 : 1.0);
  }
  nlohmann::json j = {{"loads", loads}, {"targets", targets}, {"succ_cost", succ}};
  if (bidirectional) j["pred_cost"] = pred;
  return j.dump();
}
}  // namespace

TEST(RingReplay, RandomRingsRunAsPlanned) {
  const auto dir = scratch_dir("ring-replay");
  std::mt19937 rng(42);
  for (int trial = 0; trial < 24; ++trial) {
    const int n = 3 + trial % 6;
    const bool bidirectional = trial % 2 == 1, heterogeneous = trial % 4 >= 2;
    const std::string text = random_ring(rng, n, bidirectional, heterogeneous);
    std::ofstream(dir / "ring.json") << text;
    const CommandResult r = run_hetlb("simulate ring ring.json --format json", dir);
    ASSERT_EQ(r.exit_code, 0) << text << "\n" << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const double time = j["time"].get<double>();
    EXPECT_NEAR(j["simulated_time"].get<double>(), time, 1e-9 * std::max(1.0, time)) << text;
    EXPECT_LE(j["max_deviation"].get<double>(), 1e-9 * std::max(1.0, time)) << text;
    EXPECT_EQ(j["final_loads"], nlohmann::json::parse(text)["targets"]) << text;
  }
  std::filesystem::remove_all(dir);
}

TEST(RingReplay, BadInputIsOneLine) {
  const auto dir = scratch_dir("ring-replay-bad");
  std::ofstream(dir / "two.json") << R"({"loads": [3, 1], "targets": [2, 2], "succ_cost": 1, "pred_cost": 1})";
  const CommandResult r = run_hetlb("simulate ring two.json", dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("expected n >= 3"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace hetlb::testing
