// hetlb scatter / compare from the outside: documented JSON shape, formats, figures, bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace hetlb::testing {

namespace fs = std::filesystem;

class ScatterCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    example = std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json";
  }
  void TearDown() override { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; }
  // A refusal: non-zero exit, one line on stderr, nothing on stdout, no file left behind.
  void expect_refusal(const std::string& args, const std::string& fragment) {
    const CommandResult r = run_hetlb(args, dir);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(r.err_lines(), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << args << "\n" << r.out;
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string n = e.path().filename().string();
      EXPECT_TRUE(n == "out.txt" || n == "err.txt" || n.ends_with(".json")) << "left behind: " << n;
    }
  }
  fs::path dir;
  std::string example;
};

TEST_F(ScatterCli, JsonHasTheDocumentedShape) {
  const CommandResult r = run_hetlb("scatter '" + example + "' --format json", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["algorithm"], "exact");
  EXPECT_EQ(j["items"], 817101);
  EXPECT_TRUE(j["optimal"].get<bool>());
  EXPECT_NEAR(j["makespan"].get<double>(), 403.975, 0.01);
  EXPECT_LE(j["lower_bound"].get<double>(), j["makespan"].get<double>());
  ASSERT_EQ(j["order"].size(), 16u);
  EXPECT_EQ(j["order"].back(), "dinadan");
  ASSERT_EQ(j["shares"].size(), 16u);
  long long total = 0;
  for (const auto& s : j["shares"]) {
    for (const char* key : {"name", "items", "comm_start", "comm_end", "finish"}) EXPECT_TRUE(s.contains(key)) << key;
    total += s["items"].get<long long>();
  }
  EXPECT_EQ(total, 817101);
  EXPECT_EQ(j["shares"][0]["name"], j["order"][0]);
  EXPECT_TRUE(j["solve_seconds"].is_number());
}

TEST_F(ScatterCli, TableCsvAndCompare) {
  CommandResult r = run_hetlb("scatter '" + example + "' --algorithm lp --format csv --items 1000", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("name,items,comm_start,comm_end,finish,idle\n", 0), 0u);
  r = run_hetlb("scatter '" + example + "' --algorithm uniform", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("makespan"), std::string::npos);
  r = run_hetlb("compare '" + example + "' --items 2000 --orders bandwidth reverse-bandwidth given --format json", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.size(), 18u);  // 6 algorithms x 3 orders
  for (const auto& row : j)
    if (row["ok"].get<bool>()) {
      EXPECT_GE(row["gap_percent"].get<double>(), -1e-9);
    }
}

TEST_F(ScatterCli, RootAuto) {
  const CommandResult r = run_hetlb("scatter '" + example + "' --root auto --items 5000 --format json", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["root_candidates"].size(), 16u);
}

TEST_F(ScatterCli, GanttChart) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const CommandResult r = run_hetlb("scatter '" + example + "' --gantt g.svg", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(dir / "g.svg"));
  EXPECT_NE(slurp(dir / "g.svg").find("caseb"), std::string::npos);
}

TEST_F(ScatterCli, BadInputIsOneClearLine) {
  write("bad.json", "{\"processors\": [");
  write("dup.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}},
                                                    {"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  write("table.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"table": [[5, 1], [3, 2]]}, "comm": {"per_item": 0}}]})");
  write("noitems.json", R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  write("affine.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"latency": 1, "per_item": 1}, "comm": {"per_item": 0}},
                                                       {"name": "b", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  expect_refusal("scatter missing.json", "missing.json: cannot open");
  expect_refusal("scatter bad.json", "bad.json: malformed JSON");
  expect_refusal("scatter dup.json", "duplicate processor name 'a'");
  expect_refusal("scatter table.json", "expected increasing x");
  expect_refusal("scatter noitems.json", "no items");
  expect_refusal("scatter '" + example + "' --algorithm fastest", "--algorithm");
  expect_refusal("scatter '" + example + "' --order random", "--order");
  expect_refusal("scatter '" + example + "' --format xml", "--format");
  expect_refusal("scatter '" + example + "' --items 0", "--items");
  expect_refusal("scatter '" + example + "' --items -5", "--items");
  expect_refusal("scatter '" + example + "' --items 99999999999999999999", "--items");
  expect_refusal("scatter '" + example + "' --items many", "--items");
  expect_refusal("scatter '" + example + "' --root nobody", "unknown processor 'nobody'");
  expect_refusal("scatter '" + example + "' --algorithm dp-basic", "dp-basic");
  expect_refusal("scatter '" + example + "' --order best", "order best");
  expect_refusal("scatter affine.json --algorithm closed-form", "closed-form: needs linear costs");
  expect_refusal("scatter '" + example + "' --gantt chart.pdf", "expected a .png or .svg");
  expect_refusal("scatter '" + example + "' --gantt nodir/chart.png", "folder does not exist");
  expect_refusal("compare missing.json", "missing.json: cannot open");
  expect_refusal("frobnicate", "frobnicate");
}

}  // namespace hetlb::testing
