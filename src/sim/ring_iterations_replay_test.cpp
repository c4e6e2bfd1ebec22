// hetlb simulate ring-iterations --engine simgrid: random iterative ring applications (every ring kind,
// moving window and random walk, several policies) replayed on SimGrid; without contention the
// simulated times equal the model's, the items moved are the model's and the redistributions end on
// the targets (the replay refuses otherwise).
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../tests/cli/run_command.hpp"

namespace hetlb::testing {

namespace {
std::string random_app(std::mt19937& rng, int n, bool bidirectional, bool heterogeneous) {
  std::uniform_int_distribution<int> load(0, 30), half(1, 4);
  std::vector<int> loads;
  std::vector<double> succ, pred, speeds;
  for (int i = 0; i < n; ++i) {
    loads.push_back(load(rng));
    succ.push_back(heterogeneous ? half(rng) / 2.0 : 1.0);
    pred.push_back(heterogeneous ? half(rng) / 2.0 : 1.0);
    speeds.push_back(heterogeneous ? half(rng) / 2.0 : 1.0);
  }
  nlohmann::json j = {{"loads", loads}, {"succ_cost", succ}, {"speeds", speeds}};
  if (bidirectional) j["pred_cost"] = pred;
  return j.dump();
}
}  // namespace

TEST(RingIterationsReplay, SimulatedTimesEqualTheModels) {
  const auto dir = scratch_dir("ring-iterations-replay");
  std::mt19937 rng(7);
  const std::vector<std::string> policies{"never", "every:1", "every:3", "threshold:1.2", "model"};
  for (int trial = 0; trial < 16; ++trial) {
    const int n = 3 + trial % 7;
    const bool bidirectional = trial % 2 == 1, heterogeneous = trial % 4 >= 2;
    const std::string text = random_app(rng, n, bidirectional, heterogeneous);
    std::ofstream(dir / "app.json") << text;
    const std::string args = fmt::format("simulate ring-iterations app.json --policy {} --iterations 30 --drift {} "
                                         "--drift-speed 0.5 --ratio {} --seed {} --format json",
                                         policies[trial % policies.size()], trial % 3 == 0 ? "walk" : "window",
                                         trial % 5 == 0 ? 0.1 : 2.0, trial);
    const CommandResult model = run_hetlb(args, dir);
    const CommandResult simgrid = run_hetlb(args + " --engine simgrid", dir);
    ASSERT_EQ(model.exit_code, 0) << text << "\n" << model.err;
    ASSERT_EQ(simgrid.exit_code, 0) << text << "\n" << simgrid.err;
    const auto m = nlohmann::json::parse(model.out), s = nlohmann::json::parse(simgrid.out);
    for (const char* field : {"total_time", "compute_time", "redistribution_time", "imbalance_time"}) {
      const double want = m[field].get<double>();
      EXPECT_NEAR(s[field].get<double>(), want, 1e-9 * std::max(1.0, std::abs(want))) << field << " " << text;
    }
    EXPECT_EQ(s["model_total_time"], m["total_time"]) << text;
    EXPECT_EQ(s["redistributions"], m["redistributions"]) << text;
    EXPECT_EQ(s["data_moved"], m["data_moved"]) << text;
    EXPECT_EQ(s["engine"], "simgrid");
  }
  std::filesystem::remove_all(dir);
}

TEST(RingIterationsReplay, BadInputIsOneLine) {
  const auto dir = scratch_dir("ring-iterations-replay-bad");
  std::ofstream(dir / "two.json") << R"({"loads": [3, 1], "succ_cost": 1, "pred_cost": 1})";
  CommandResult r = run_hetlb("simulate ring-iterations two.json --policy every:1 --iterations 3 --drift walk "
                              "--ratio 1 --engine simgrid", dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("expected n >= 3"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = run_hetlb("simulate ring-iterations two.json --policy never --iterations 3 --drift walk --ratio 1 --engine des",
                dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace hetlb::testing
