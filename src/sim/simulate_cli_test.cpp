// hetlb simulate diffusion, end to end through the command line: JSON keys, trace file, and bad
// input refused with one line on stderr, a non-zero exit and no output file.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../tests/cli/run_command.hpp"

namespace {

using CliRun = hetlb::testing::CommandResult;

using hetlb::testing::slurp;

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/simulate_cli_" + name; }

CliRun hetlb(const std::string& args) {
  static const auto dir = hetlb::testing::scratch_dir("simulate-cli");  // per process: ctest -j runs tests side by side
  return hetlb::testing::run_hetlb("simulate diffusion " + args, dir);
}

void expect_refused(const std::string& args, const std::string& fragment) {
  hetlb::testing::expect_refused_in_one_line(hetlb(args), fragment, args);
}

constexpr const char* kSmall = "--nodes 8 --topology ring --load-per-node 100 --iterations 20 ";

TEST(SimulateCli, JsonHasThePapersMetrics) {
  const CliRun r = hetlb(std::string(kSmall) + "--initial random --seed 3 --virtual-load --integer --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"avg_idle_time", "avg_convergence_date", "max_convergence_date", "data_transfer_amount",
                          "converged", "initial_total_load", "final_total_load", "simulated_time", "wall_seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_TRUE(j["converged"].get<bool>());
  EXPECT_EQ(j["initial_total_load"].get<double>(), 800);
  EXPECT_EQ(j["final_total_load"].get<double>(), 800);
}

// The draft's simple rule unless --residue-equal says otherwise; the JSON says which ran.
TEST(SimulateCli, ResidueEqualIsSaid) {
  for (const bool on : {false, true}) {
    const CliRun r = hetlb(std::string(kSmall) + "--strategy simple --format json" + (on ? " --residue-equal" : ""));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out).at("residue_equal").get<bool>(), on);
  }
}

TEST(SimulateCli, CoalesceDataIsSaid) {
  for (const bool on : {false, true}) {
    const CliRun r = hetlb(std::string(kSmall) + "--format json" + (on ? " --coalesce-data" : ""));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("coalesce_data").get<bool>(), on);
    EXPECT_GE(j.at("max_data_in_flight").get<std::uint64_t>(), 1u);
  }
}

// The table gives dates in seconds and says so, and convergence dates in tau too: at ratio 0.1 tau is
// 0.1 s, so a bare 52.7 would read as 52.7 tau when it is 527.
TEST(SimulateCli, TableGivesDatesInSecondsAndTau) {
  const std::string args = std::string(kSmall) + "--ratio 0.1";
  const CliRun t = hetlb(args), js = hetlb(args + " --format json");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  ASSERT_EQ(js.exit_code, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  const double tau = j["tau"].get<double>(), date = j["max_convergence_date"].get<double>();
  ASSERT_GT(date, 0);
  EXPECT_NE(t.out.find(fmt::format("tau                      {:.6g} s\n", tau)), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(fmt::format("max_convergence_date     {:.6g} s ({:.6g} tau)\n", date, date / tau)),
            std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("\nsimulated_time           "), std::string::npos);
  EXPECT_NE(t.out.find(fmt::format("{:.6g} s\n", j["simulated_time"].get<double>())), std::string::npos) << t.out;
}

TEST(SimulateCli, TraceHasOneColumnPerNode) {
  const std::string csv = tmp("trace.csv");
  std::remove(csv.c_str());
  const CliRun r = hetlb(std::string(kSmall) + "--trace " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(csv);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(header.rfind("date,node0,", 0), 0u);
  EXPECT_TRUE(header.ends_with(",node7,time_imbalance")) << header;
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), 9);
  EXPECT_EQ(std::count(row.begin(), row.end(), ','), 9);
  EXPECT_TRUE(row.ends_with(",8")) << row;  // all 800 units on one of 8 equal nodes: 8 times the average
  EXPECT_EQ(row.rfind("0,800,0,", 0), 0u) << row;
}

TEST(SimulateCli, PlotsTheLoadCurves) {
  if (std::system("gnuplot --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot absent";
  const std::string png = tmp("curves.png");
  std::remove(png.c_str());
  const CliRun r = hetlb(std::string(kSmall) + "--plot " + png);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(png).substr(1, 3), "PNG");
}

TEST(SimulateCli, ExampleFilesDecideTheNodeCount) {
  const std::string ex = std::string(HETLB_SOURCE_DIR) + "/examples/";
  const CliRun r = hetlb("--topology " + ex + "diffusion-star-of-rings.edges --initial " + ex +
                         "diffusion-skewed.loads --integer --virtual-load --iterations 50 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["nodes"].get<int>(), 9);
  EXPECT_EQ(j["final_total_load"].get<double>(), 9000);
  EXPECT_TRUE(j["converged"].get<bool>());
}

TEST(SimulateCli, ScatterReplayMatchesThePlan) {
  const std::string cmd = std::string(HETLB_BINARY_DIR) + "/bin/hetlb simulate scatter " + HETLB_SOURCE_DIR +
                          "/examples/grid1999.json --items 20000 --format json";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t got; (got = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, got);
  ASSERT_EQ(pclose(p), 0);
  const auto j = nlohmann::json::parse(out);
  EXPECT_LT(std::abs(j["relative_gap"].get<double>()), 1e-6);
  EXPECT_EQ(j["shares"].size(), 16u);
}

// XML platforms: totals SimGrid cannot complete are refused (it reported a deadlock); a plan with
// nothing to do (free computation) has a relative gap of 0, not NaN.
TEST(SimulateCli, ScatterReplayOnXmlAtTheEdges) {
  static const auto dir = hetlb::testing::scratch_dir("simulate-cli-xml");
  const std::string xml = tmp("four.xml");
  ASSERT_EQ(hetlb::testing::run_hetlb("simgrid-platform --study cluster --nodes 4 -o " + xml, dir).exit_code, 0);
  const std::string scatter = "simulate scatter " + xml + " --items 10 ";
  hetlb::testing::expect_refused_in_one_line(hetlb::testing::run_hetlb(scatter + "--flops-per-item 1e308", dir),
                                             "10 items of 1e+308 flops and 10000 bytes; expected finite totals",
                                             "--flops-per-item 1e308");
  const CliRun r = hetlb::testing::run_hetlb(scatter + "--flops-per-item 1e-320 --format json", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["predicted_makespan"].get<double>(), 0.0);
  ASSERT_TRUE(j["relative_gap"].is_number()) << r.out;
  EXPECT_EQ(j["relative_gap"].get<double>(), 0.0);
}

TEST(SimulateCli, RefusesBadInput) {
  const std::string asym = tmp("asym.txt"), disc = tmp("disc.txt"), xml = tmp("bad.xml");
  std::ofstream(asym) << "0 1\n1 0\n1 2\n";
  std::ofstream(disc) << "0 1\n1 0\n2 3\n3 2\n";
  std::ofstream(xml) << "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n<host id=\"a\"";
  expect_refused("--strategy bogus", "strategy \"bogus\"");
  expect_refused("--residue-equal", "--residue-equal: applies to --strategy simple only, not besteffort");
  // CLI11 wrapped negative seeds (-5 became 2^64 - 5) and saturated large counts, silently.
  expect_refused("--seed -5", "--seed: value -5: expected a whole number from 0 to 18446744073709551615");
  expect_refused("--seed 99999999999999999999999", "--seed: value 99999999999999999999999: expected a whole number");
  expect_refused("--iterations 99999999999999999999999", "--iterations: value 99999999999999999999999: expected a whole");
  expect_refused("--iterations 0", "--iterations: value 0: expected a whole number from 1 to");
  expect_refused("--topology hypercube --nodes 12", "power of 2");
  expect_refused("--topology torus --nodes 13", "prime");
  expect_refused("--topology " + asym + " --nodes 3", "asymmetric");
  expect_refused("--topology " + disc + " --nodes 4", "disconnected");
  expect_refused("--platform " + xml, "bad.xml");
  expect_refused("--platform nowhere.xml", "no such file");
  expect_refused("--initial nowhere.txt", "no such file");
  // A directory where a file is expected is named as such (it opens for reading on Linux).
  const std::string dir = tmp("a-directory");
  std::filesystem::create_directories(dir);
  expect_refused("--platform " + dir, "is a directory");
  expect_refused("--initial " + dir, "is a directory");
  expect_refused("--topology " + dir, "is a directory");
  // A balancing activity with no minimum iteration would repeat at one date forever: refused, not hung.
  const std::string at_least = ": expected a duration of at least 1e-07 s, or a negative number for the default";
  expect_refused("--min-lb-iter 0", "--min-lb-iter: value 0" + at_least);
  expect_refused("--min-comp-iter inf", "--min-comp-iter: value inf" + at_least);
  expect_refused("--min-comp-iter 0", "--min-comp-iter: value 0" + at_least);
  // Below the clock's resolution: start + 1e-30 == start, the same endless loop at one date.
  expect_refused("--min-lb-iter 1e-30", "--min-lb-iter: value 1e-30" + at_least);
  expect_refused("--min-comp-iter 9e-8", "--min-comp-iter: value 9e-8" + at_least);
  expect_refused("--load-per-node 1e-300", "expected tau >= 1e-06 s");
  // SimGrid aborted past the process's memory mappings (8192 nodes); beyond 16384 nodes, refused.
  expect_refused("--nodes 32768 --topology ring", "32768 nodes: expected at most 16384");
  // inf flops: SimGrid would never complete the execution (it reported a deadlock, and exit 0).
  expect_refused("--ratio 1e300", "inf flops and a time limit of 2e+304 s; expected finite amounts");
  // 2e13 samples of the loads up to the time limit: refused before the run, and no file written.
  expect_refused("--trace-interval 1e-9 --trace " + tmp("never.csv"), "2e+13 samples of 16 loads");
  EXPECT_FALSE(std::ifstream(tmp("never.csv")).good());
  expect_refused("--trace-interval 0 --trace " + tmp("never.csv"), "--trace-interval: value 0");
  EXPECT_FALSE(std::ifstream(tmp("never.csv")).good());
  // Outputs are checked before the simulation, which may be long.
  expect_refused("--plot " + tmp("no-such-folder/loads.svg"), "loads.svg\": its folder does not exist");
  expect_refused("--trace " + dir, "\": is a directory; expected a writable path");
  expect_refused("--k 0.5", "k >= 1");
  expect_refused("--ratio 0", "--ratio");
  const std::string png = tmp("refused.png"), gif = tmp("refused.gif");
  std::remove(png.c_str());
  const CliRun r = hetlb("--strategy bogus --plot " + png);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(std::ifstream(png).good());
  EXPECT_NE(hetlb("--plot " + gif).exit_code, 0);
  EXPECT_FALSE(std::ifstream(gif).good());
}

// Rows of a trace CSV: date, node loads..., time_imbalance.
std::vector<std::vector<double>> trace_rows(const std::string& path) {
  std::vector<std::vector<double>> rows;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

double load_imbalance_of(const std::vector<double>& row) {  // max / mean of the loads (columns 1..n)
  double sum = 0, most = 0;
  for (std::size_t i = 1; i + 1 < row.size(); ++i) {
    sum += row[i];
    most = std::max(most, row[i]);
  }
  return sum > 0 ? most / (sum / static_cast<double>(row.size() - 2)) : 1;
}

// Without balancing nothing moves: the whole load stays on node 0 of 4, the imbalance is 4 at every
// date (also after the end) and its area 4 x the run's duration, in both views (equal speeds).
TEST(SimulateCli, ImbalanceOverTimeWithoutBalancingIsTheInitialOne) {
  const CliRun r = hetlb("--strategy none --nodes 4 --topology ring --load-per-node 100 --time-limit 5 "
                         "--metrics-at 0,1,2.5,100 --imbalance-integral --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_DOUBLE_EQ(j.at("simulated_time").get<double>(), 5);
  for (const char* view : {"load", "time"}) {
    for (const char* date : {"0", "1", "2.5", "100"})
      EXPECT_DOUBLE_EQ(j.at(fmt::format("{}_imbalance_at_{}", view, date)).get<double>(), 4) << view << date;
    EXPECT_DOUBLE_EQ(j.at(fmt::format("{}_imbalance_integral", view)).get<double>(), 20) << view;
  }
  // Not asked, not given.
  const CliRun plain = hetlb("--strategy none --nodes 4 --topology ring --load-per-node 100 --time-limit 5 --format json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("load_imbalance_integral"));
}

// With balancing, against the trace of the same run sampled every 0.1 ms: each value at a date is one
// of the trace's samples around it, and the area is the trace's (a step sum) to within the sampling.
// Unlike speeds make the two views differ.
TEST(SimulateCli, ImbalanceOverTimeMatchesTheTrace) {
  const std::string trace = tmp("imbalance-trace.csv");
  const CliRun r = hetlb("--strategy makhoul --nodes 4 --topology ring --load-per-node 100 --iterations 10 "
                         "--speeds 1,2,1,2 --trace-interval 0.0001 --trace " + trace +
                         " --metrics-at 0.05,0.25,0.5,1000 --imbalance-integral --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto rows = trace_rows(trace);
  ASSERT_GT(rows.size(), 100u);
  double load_area = 0, time_area = 0;
  const double end = j.at("simulated_time").get<double>();
  for (std::size_t k = 0; k + 1 < rows.size(); ++k) {
    const double until = std::min(rows[k + 1][0], end);
    if (until <= rows[k][0]) continue;
    load_area += load_imbalance_of(rows[k]) * (until - rows[k][0]);
    time_area += rows[k].back() * (until - rows[k][0]);
  }
  EXPECT_NEAR(j.at("load_imbalance_integral").get<double>(), load_area, 0.01 * load_area);
  EXPECT_NEAR(j.at("time_imbalance_integral").get<double>(), time_area, 0.01 * time_area);
  EXPECT_NE(j.at("load_imbalance_integral").get<double>(), j.at("time_imbalance_integral").get<double>());
  EXPECT_GT(j.at("load_imbalance_integral").get<double>(), end);  // imbalanced at first: above 1 x the duration
  for (const double date : {0.05, 0.25, 0.5}) {
    bool load_seen = false, time_seen = false;
    for (const auto& row : rows)
      if (std::abs(row[0] - date) <= 0.00021) {
        load_seen |= std::abs(load_imbalance_of(row) - j.at(fmt::format("load_imbalance_at_{}", date)).get<double>()) < 1e-9;
        time_seen |= std::abs(row.back() - j.at(fmt::format("time_imbalance_at_{}", date)).get<double>()) < 1e-9;
      }
    EXPECT_TRUE(load_seen) << date;
    EXPECT_TRUE(time_seen) << date;
  }
  // After the end: the final loads.
  EXPECT_DOUBLE_EQ(j.at("time_imbalance_at_1000").get<double>(), j.at("final_time_imbalance").get<double>());
  std::remove(trace.c_str());
}

TEST(SimulateCli, ImbalanceDatesMustBeDates) {
  expect_refused(std::string(kSmall) + "--metrics-at -1", "--metrics-at");
  expect_refused(std::string(kSmall) + "--metrics-at 1,nan", "--metrics-at");
  expect_refused(std::string(kSmall) + "--metrics-at inf", "--metrics-at");
}

}  // namespace
