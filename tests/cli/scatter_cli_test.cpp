// hetlb scatter / compare from the outside: documented JSON shape, formats, figures, bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

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
  EXPECT_EQ(j.size(), 12u);  // 4 algorithms (dp rows are opt-in) x 3 orders
  for (const auto& row : j) EXPECT_TRUE(row["ok"].get<bool>()) << row.dump();
  for (const auto& row : j)
    if (row["ok"].get<bool>()) {
      EXPECT_GE(row["gap_percent"].get<double>(), -1e-9);
    }
}

// Tables show times in the makespan's unit: a plan of microseconds is not a column of 0.000 s, a cost
// of 1e300 s is not 300 digits, and a platform without a name is not "platform :".
TEST_F(ScatterCli, TablesShowTimesInTheMakespansUnit) {
  write("fast.json", R"({"items": 1000, "root": "a", "processors": [
    {"name": "a", "compute": {"per_item": 2e-8}, "comm": {"per_item": 0}},
    {"name": "b", "compute": {"per_item": 1e-8}, "comm": {"per_item": 3e-9}},
    {"name": "c", "compute": {"per_item": 4e-8}, "comm": {"per_item": 1e300}}]})");
  CommandResult r = run_hetlb("scatter fast.json --root auto", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("platform: 3 processors, 1000 items, root a\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("times in us\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("makespan     8.671000 us\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lower bound  8.671000 us"), std::string::npos) << r.out;
  // c as the root: 1000 items x 1e300 s = 1e303 s, 1e309 us (past the largest double, not "inf").
  EXPECT_NE(r.out.find("transfer   1.000e+309 + scatter"), std::string::npos) << r.out;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) EXPECT_LT(line.size(), 200u) << line;
  r = run_hetlb("compare fast.json --orders bandwidth", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(makespans in us)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("      8.671        8.671"), std::string::npos) << r.out;
  r = run_hetlb("scatter fast.json --perturb 10 --samples 3", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("makespan on the model 8.671 us"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("makespan (us)"), std::string::npos) << r.out;
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0) {  // the distribution figure, in us too
    r = run_hetlb("scatter fast.json --perturb 10 --samples 3 --figure f.svg", dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string svg = slurp(dir / "f.svg");
    EXPECT_NE(svg.find("makespan (us)"), std::string::npos);
    EXPECT_NE(svg.find("model: 8.7 us"), std::string::npos);
    r = run_hetlb("scatter fast.json --gantt g.svg", dir);  // the Gantt chart: axis and title in us
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string gantt = slurp(dir / "g.svg");
    EXPECT_NE(gantt.find("time (us)"), std::string::npos);
    EXPECT_NE(gantt.find("makespan 8.67 us"), std::string::npos);
  }
  r = run_hetlb("simulate scatter fast.json", dir);  // the SimGrid replay's table
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("times in us\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("makespan: predicted 8.671000 us, simulated 8.671000 us"), std::string::npos) << r.out;
  // Seconds from 1 s up (403.975 s here), as before.
  r = run_hetlb("scatter '" + example + "'", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("times in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" s\nlower bound"), std::string::npos) << r.out;
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
  const std::string svg = slurp(dir / "g.svg");
  EXPECT_NE(svg.find("caseb"), std::string::npos);
  EXPECT_NE(svg.find("time (s)"), std::string::npos);  // seconds from 1 s up
}

TEST_F(ScatterCli, BadInputIsOneClearLine) {
  write("bad.json", "{\"processors\": [");
  write("dup.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}},
                                                    {"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  write("table.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"table": [[5, 1], [3, 2]]}, "comm": {"per_item": 0}}]})");
  write("noitems.json", R"({"processors": [{"name": "a", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  write("affine.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"latency": 1, "per_item": 1}, "comm": {"per_item": 0}},
                                                       {"name": "b", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  // Times beyond the largest double: plans printed a makespan of inf (or a rounding error).
  write("huge.json", R"({"items": 10, "root": "a",
                         "processors": [{"name": "a", "compute": {"per_item": 1e308}, "comm": {"per_item": 0}},
                                        {"name": "b", "compute": {"per_item": 1}, "comm": {"table": [[1, 1], [2, 1e308]]}}]})");
  expect_refusal("scatter missing.json", "missing.json: cannot read the platform file: no such file");
  expect_refusal("scatter huge.json", "10 items take up to inf s on processor b");
  expect_refusal("scatter huge.json --algorithm uniform --items 1", "receptions add up to 1e+308 s");
  expect_refusal("compare huge.json", "huge.json: platform: 10 items take up to inf s");
  expect_refusal("compare huge.json --root nobody", "unknown processor 'nobody'");
  std::filesystem::create_directories(dir / "a-directory.json");
  expect_refusal("scatter a-directory.json", "a-directory.json: cannot read the platform file: is a directory");
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
  expect_refusal("scatter affine.json --algorithm closed-form", "closed-form: needs linear costs");
  expect_refusal("scatter '" + example + "' --gantt chart.pdf", "expected a .png or .svg");
  expect_refusal("scatter '" + example + "' --gantt nodir/chart.png", "folder does not exist");
  expect_refusal("compare missing.json", "missing.json: cannot read the platform file: no such file");
  expect_refusal("frobnicate", "frobnicate");
}

TEST_F(ScatterCli, ExplicitOrderAndBestOrder) {
  CommandResult r = run_hetlb("scatter '" + example +
                                  "' --format json --order leda-1,leda-2,leda-3,leda-4,leda-5,leda-6,leda-7,leda-8,"
                                  "merlin-1,merlin-2,seven-1,seven-2,sekhmet,pellinore,caseb",
                              dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["order"][0], "leda-1");
  EXPECT_EQ(j["order"].back(), "dinadan");
  EXPECT_TRUE(j["optimal"].get<bool>()) << j["method"];
  r = run_hetlb("scatter '" + example + "' --format json --order best --items 20000 --order-evaluations 60", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("order_search"));
  EXPECT_LE(j["makespan"].get<double>(), j["order_search"]["bandwidth_makespan"].get<double>());
  EXPECT_LE(j["order_search"]["lower_bound"].get<double>(), j["makespan"].get<double>());
}

TEST_F(ScatterCli, PerturbationReport) {
  CommandResult r = run_hetlb("scatter '" + example + "' --perturb 10 --samples 5 --seed 3 --format json", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out)["perturbation"];
  EXPECT_EQ(j["per_sample"].size(), 5u);
  for (const auto& s : j["per_sample"]) EXPECT_LE(s["replanned"].get<double>(), s["plan"].get<double>() + 1e-9);
  const CommandResult again = run_hetlb("scatter '" + example + "' --perturb 10 --samples 5 --seed 3 --format json", dir);
  EXPECT_EQ(nlohmann::json::parse(again.out)["perturbation"], j) << "same seed, same samples";
  // A load peak on sekhmet: the balanced plan suffers, re-planning knows better.
  r = run_hetlb("scatter '" + example + "' --factor sekhmet=2 --format json", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto peak = nlohmann::json::parse(r.out)["perturbation"];
  EXPECT_GT(peak["plan_makespan"]["max"].get<double>(), peak["replanned_makespan"]["max"].get<double>() + 100);
  r = run_hetlb("scatter '" + example + "' --perturb 5 --samples 3 --format csv", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("sample,plan_makespan,replanned_makespan,regret\n", 0), 0u);
  if (std::system("command -v gnuplot > /dev/null 2>&1") == 0) {
    r = run_hetlb("scatter '" + example + "' --perturb 5 --samples 4 --figure robust.svg", dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "robust.svg"));
  }
}

TEST_F(ScatterCli, BadOrdersAndPerturbations) {
  write("factors.json", R"({"nobody": 2})");
  const std::string rest = "merlin-1,merlin-2,seven-1,seven-2,leda-1,leda-2,leda-3,leda-4,leda-5,leda-6,leda-7,leda-8";
  expect_refusal("scatter '" + example + "' --order caseb,sekhmet,nobody,pellinore," + rest, "unknown processor 'nobody'");
  expect_refusal("scatter '" + example + "' --order caseb,caseb,sekhmet,pellinore," + rest, "'caseb' appears twice");
  expect_refusal("scatter '" + example + "' --order caseb,dinadan,sekhmet,pellinore," + rest, "'dinadan' is the root");
  expect_refusal("scatter '" + example + "' --order caseb,sekhmet," + rest, "'pellinore' is missing");
  expect_refusal("scatter '" + example + "' --perturb 100 --figure f.svg", "--perturb 100: expected a percentage in [0, 100)");
  expect_refusal("scatter '" + example + "' --perturb -1 --figure f.svg", "--perturb");
  expect_refusal("scatter '" + example + "' --perturb 150", "--perturb 150");
  expect_refusal("scatter '" + example + "' --perturb abc", "--perturb");
  expect_refusal("scatter '" + example + "' --perturb 10 --samples 0 --figure f.svg", "--samples: value 0: expected a whole number from 1 to 1000000");
  // Beyond int: once read as a negative count, named as given now.
  expect_refusal("scatter '" + example + "' --perturb 10 --samples 3000000000", "--samples: value 3000000000: expected a whole number from 1 to 1000000");
  expect_refusal("scatter '" + example + "' --perturb 10 --samples -3", "--samples");
  expect_refusal("scatter '" + example + "' --factor nobody=2 --figure f.svg", "unknown processor 'nobody'");
  expect_refusal("scatter '" + example + "' --factor sekhmet=0", "factor '0': expected a positive number");
  expect_refusal("scatter '" + example + "' --factor sekhmet", "expected NAME=FACTOR");
  expect_refusal("scatter '" + example + "' --factors factors.json", "factors.json: unknown processor 'nobody'");
  expect_refusal("scatter '" + example + "' --factors none.json", "none.json: cannot read the factors file: no such file");
  expect_refusal("scatter '" + example + "' --perturb 10 --figure f.pdf", "expected a .png or .svg");
  expect_refusal("scatter '" + example + "' --perturb 10 --seed -3", "--seed: value -3: expected a whole number from 0 to");
  // Past the type: CLI11 saturated these to the largest value, silently.
  expect_refusal("scatter '" + example + "' --perturb 10 --seed 99999999999999999999999",
                 "--seed: value 99999999999999999999999: expected a whole number from 0 to 18446744073709551615");
  expect_refusal("scatter '" + example + "' --perturb 10 --samples 99999999999999999999999",
                 "--samples: value 99999999999999999999999: expected a whole number from 1 to 1000000");
  expect_refusal("scatter '" + example + "' --figure f.svg", "--figure f.svg: the robustness figure needs");
}

}  // namespace hetlb::testing
