// hetlb scatter --weights from the outside: unit weights give today's plan, unequal ones the
// weighted optimum (docs/weighted-items.md), bad files one line.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace hetlb::testing {

namespace fs = std::filesystem;

class ScatterWeightsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    example = std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json";
  }
  void TearDown() override { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; }
  nlohmann::json plan(const std::string& args) {
    const CommandResult r = run_hetlb("scatter '" + example + "' --format json " + args, dir);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
  }
  void expect_refusal(const std::string& args, const std::string& fragment) {
    const CommandResult r = run_hetlb("scatter '" + example + "' " + args, dir);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(r.err_lines(), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
  fs::path dir;
  std::string example;
};

TEST_F(ScatterWeightsCli, UnitWeightsGiveTheCountPlan) {
  std::string ones;
  for (int k = 0; k < 3000; ++k) ones += "1\n";
  write("ones.txt", ones);
  const auto counted = plan("--items 3000");
  const auto weighted = plan("--weights ones.txt");
  ASSERT_EQ(counted["shares"].size(), weighted["shares"].size());
  for (std::size_t i = 0; i < counted["shares"].size(); ++i)
    EXPECT_EQ(counted["shares"][i]["items"], weighted["shares"][i]["items"]) << i;
  EXPECT_EQ(counted["makespan"], weighted["makespan"]);
  EXPECT_EQ(weighted["layout"], "contiguous");
}

TEST_F(ScatterWeightsCli, UnequalRowsFollowTheirWork) {
  std::string rows = "# 2,000 rows, the middle fifth 17 times costlier\n";
  for (int k = 0; k < 2000; ++k) rows += (k >= 800 && k < 1200) ? "17 " : "1 ";
  write("rows.txt", rows);
  const auto uniform = plan("--weights rows.txt --algorithm uniform");
  const auto exact = plan("--weights rows.txt");
  const auto any = plan("--weights rows.txt --layout any");
  EXPECT_LT(exact["makespan"].get<double>(), 0.9 * uniform["makespan"].get<double>());
  EXPECT_TRUE(exact["optimal"].get<bool>());
  long long next = 0, total = 0;
  for (const auto& s : exact["shares"]) {
    EXPECT_EQ(s["first"].get<long long>(), next);
    next += s["items"].get<long long>();
    total += s["items"].get<long long>();
  }
  EXPECT_EQ(total, 2000);
  ASSERT_EQ(any["assignment"].size(), 2000u);
  EXPECT_LE(any["makespan"].get<double>(), exact["makespan"].get<double>());
  EXPECT_EQ(any["contiguous_makespan"], exact["makespan"]);
}

TEST_F(ScatterWeightsCli, JsonWeightsWithSizes) {
  write("w.json", R"({"work": [4, 1, 1, 1, 1, 1, 1, 1], "size": [1, 1, 1, 1, 1, 1, 1, 2]})");
  const auto j = plan("--weights w.json");
  EXPECT_EQ(j["items"], 8);
}

TEST_F(ScatterWeightsCli, BadInputIsOneLine) {
  write("neg.txt", "1 2\n3 -4\n");
  expect_refusal("--weights neg.txt", "neg.txt:2: item 3: -4: expected a finite number >= 0");
  write("word.txt", "1 x 2");
  expect_refusal("--weights word.txt", "word.txt:1: item 1");
  write("ok.txt", "1 2 3");
  expect_refusal("--layout any", "--layout any: needs --weights");
  expect_refusal("--weights ok.txt --items 4", "the weights give 3 items");
  expect_refusal("--weights ok.txt --order best", "order best: not available with weights");
  expect_refusal("--weights missing.txt", "missing.txt");
  write("empty.json", "[]");
  expect_refusal("--weights empty.json", "no items");
}

}  // namespace hetlb::testing
