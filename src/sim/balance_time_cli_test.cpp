// hetlb simulate diffusion --balance time, end to end: unlike speeds converge to speed-proportional
// shares; with equal speeds the committed study rows come out unchanged; a slowdown is followed; and
// every bad speed, slowdown or platform is refused in one line, with no output file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../tests/cli/run_command.hpp"

namespace {

using CliRun = hetlb::testing::CommandResult;
using nlohmann::json;

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/balance_time_" + name; }

CliRun hetlb(const std::string& args) {
  static const auto dir = hetlb::testing::scratch_dir("balance-time");  // per process: ctest -j runs tests side by side
  return hetlb::testing::run_hetlb("simulate diffusion " + args, dir);
}

json run_json(const std::string& args) {
  const CliRun r = hetlb(args + " --format json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

// Speeds 1, 2, 3, 4, 1, 2, ... on the cluster (relative, Gflop/s).
std::string unlike_speeds(int nodes) {
  std::string s;
  for (int i = 0; i < nodes; ++i) s += (i ? "," : "") + std::to_string(1 + i % 4);
  return s;
}

void expect_speed_proportional(const json& j) {
  ASSERT_TRUE(j["converged"].get<bool>());
  const auto loads = j["final_loads"].get<std::vector<double>>();
  const auto targets = j["target_loads"].get<std::vector<double>>();
  const auto speeds = j["node_speeds"].get<std::vector<double>>();
  ASSERT_EQ(loads.size(), targets.size());
  double total = 0, speed = 0;
  for (std::size_t i = 0; i < loads.size(); ++i) total += loads[i], speed += speeds[i];
  for (std::size_t i = 0; i < loads.size(); ++i) {
    EXPECT_NEAR(targets[i], total * speeds[i] / speed, 1e-9 * total) << i;
    EXPECT_LE(std::abs(loads[i] - targets[i]), 0.01 * targets[i]) << "node " << i;
  }
  EXPECT_LT(j["final_time_imbalance"].get<double>(), 1.01);
}

TEST(BalanceTime, UnlikeSpeedsConvergeToSpeedProportionalShares) {
  const std::string run = "--nodes 16 --topology torus --initial random --seed 2 --load-per-node 100 --iterations 50 "
                          "--speeds " + unlike_speeds(16);
  const json time = run_json(run + " --balance time");
  expect_speed_proportional(time);
  // By load units the same cluster ends with the slowest nodes 4 times as long per iteration as the fastest.
  const json load = run_json(run + " --balance load");
  EXPECT_TRUE(load["converged"].get<bool>());
  EXPECT_GT(load["final_time_imbalance"].get<double>(), 1.5);
  for (double t : load["target_loads"].get<std::vector<double>>()) EXPECT_NEAR(t, 100, 1e-9);  // the average
}

TEST(BalanceTime, RealGridSubsetConvergesToItsClustersShares) {
  expect_speed_proportional(
      run_json("--platform grid-real --nodes 16 --topology hypercube --initial single --iterations 50 --balance time "
               "--virtual-load"));
  expect_speed_proportional(run_json("--platform grid-real --nodes 16 --topology hypercube --initial single "
                                     "--iterations 50 --balance time --strategy simple"));
  // Integer load: 1% of the smallest share must be at least a unit (1000 units per node).
  expect_speed_proportional(
      run_json("--speeds grid-real --nodes 16 --topology torus --initial random --iterations 50 --balance time --integer"));
}

// Committed rows of the study (docs/study/convergence.csv, 16 nodes): rerun with --balance time on
// their equal speeds, every recorded metric is the row's, to the last digit.
TEST(BalanceTime, EqualSpeedsReproduceCommittedStudyRows) {
  const std::string path = std::string(HETLB_SOURCE_DIR) + "/docs/study/convergence.csv";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  // strategy, k, virtual_load, integer, platform, topology, initial, ratio, seed
  const std::vector<std::string> wanted = {
      "besteffort,1,false,false,cluster,torus,random,10,3", "makhoul,1,true,false,cluster,hypercube,single,1,1",
      "simple,1,false,true,cluster,torus,random,1,1", "besteffort,2,false,true,grid,hypercube,random,1,1",
      "makhoul,1,true,true,grid,torus,random,1,3"};
  int checked = 0;
  for (std::string row; std::getline(in, row);) {
    std::map<std::string, std::string> r;
    std::stringstream cells(row);
    for (std::size_t c = 0; c < header.size(); ++c) {
      std::string cell;
      std::getline(cells, cell, ',');
      r[header[c]] = cell;
    }
    const std::string key = r["strategy"] + "," + r["k"] + "," + r["virtual_load"] + "," + r["integer"] + "," +
                            r["platform"] + "," + r["topology"] + "," + r["initial"] + "," + r["ratio"] + "," +
                            r["seed"];
    if (r["nodes"] != "16" || r["spec_version"] != "study-1" || std::find(wanted.begin(), wanted.end(), key) == wanted.end())
      continue;
    SCOPED_TRACE(key);
    std::string args = "--platform " + r["platform"] + " --nodes 16 --topology " + r["topology"] + " --initial " +
                       r["initial"] + " --ratio " + r["ratio"] + " --seed " + r["seed"] + " --strategy " +
                       r["strategy"] + " --k " + r["k"] + " --iterations " + r["iterations"] + " --load-per-node " +
                       r["load_per_node"] + " --balance time";
    if (r["virtual_load"] == "true") args += " --virtual-load";
    if (r["integer"] == "true") args += " --integer";
    const json j = run_json(args);
    for (const char* metric : {"converged_nodes", "avg_idle_time", "avg_convergence_date", "max_convergence_date",
                               "data_transfer_amount", "computed_load", "load_spread_percent", "ctrl_messages",
                               "data_messages", "simulated_time", "tau"}) {
      const json& v = j.at(metric);
      const std::string got = v.is_number_float() ? fmt::format("{}", v.get<double>()) : v.dump();
      EXPECT_EQ(got, r[metric]) << metric;
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(wanted.size()));
}

std::vector<std::pair<double, double>> imbalance_over_time(const std::string& csv) {
  std::ifstream in(csv);
  std::vector<std::pair<double, double>> out;
  std::string row;
  std::getline(in, row);
  while (std::getline(in, row))
    out.emplace_back(std::stod(row.substr(0, row.find(','))), std::stod(row.substr(row.rfind(',') + 1)));
  return out;
}

// Node 5 of an equal cluster slowed 4 times from 30 s to 80 s (a load peak): balancing by time, the
// iteration-time imbalance jumps when the slowdown starts and is back within 5% of balance 20 s later;
// balancing by load it stays at 16 / (15 + 1/4) until the slowdown ends.
TEST(BalanceTime, FollowsASlowdown) {
  const std::string run = "--nodes 16 --topology torus --initial random --iterations 200 --time-limit 300 "
                          "--slowdown 5:4:30:80";
  for (const std::string balance : {"time", "load"}) {
    SCOPED_TRACE(balance);
    const std::string csv = tmp("slowdown-" + balance + ".csv");
    const json j = run_json(run + " --balance " + balance + " --trace " + csv);
    const auto trace = imbalance_over_time(csv);
    double before = 0, peak = 0, late = 0;  // before the slowdown; during it: highest, highest from 50 s
    for (const auto& [date, imbalance] : trace) {
      if (date >= 25 && date < 30) before = std::max(before, imbalance);
      if (date >= 30 && date < 80) peak = std::max(peak, imbalance);
      if (date >= 50 && date < 80) late = std::max(late, imbalance);
    }
    EXPECT_GT(before, 0);
    EXPECT_LT(before, 1.01);
    EXPECT_GT(peak, 3);
    EXPECT_TRUE(j["converged"].get<bool>());
    EXPECT_LT(j["final_time_imbalance"].get<double>(), 1.01);
    if (balance == "time")
      EXPECT_LT(late, 1.05);
    else
      EXPECT_GT(late, 3);
  }
}

// The end of the streaks is computed only after the last slowdown: the same metrics as simulated.
TEST(BalanceTime, ComputedEndAfterASlowdownIsTheSimulatedOne) {
  const std::string run = "--nodes 16 --topology torus --initial random --balance time --iterations 100 "
                          "--slowdown 3:3:5:20";
  const json computed = run_json(run), simulated = run_json(run + " --simulate-streaks");
  ASSERT_TRUE(computed["streaks_computed"].get<bool>());
  EXPECT_FALSE(simulated["streaks_computed"].get<bool>());
  EXPECT_GT(computed["max_convergence_date"].get<double>(), 20);  // the slowdown broke the streaks
  for (const char* metric : {"max_convergence_date", "avg_convergence_date", "data_transfer_amount", "simulated_time",
                             "avg_idle_time"})
    EXPECT_NEAR(computed[metric].get<double>(), simulated[metric].get<double>(),
                1e-9 * simulated[metric].get<double>())
        << metric;
  for (const char* count : {"data_messages", "computing_iterations", "converged_nodes"})
    EXPECT_EQ(computed[count], simulated[count]) << count;
}

void expect_refused(const std::string& args, const std::string& fragment) {
  const std::string csv = tmp("refused.csv");
  std::remove(csv.c_str());
  hetlb::testing::expect_refused_in_one_line(hetlb(args + " --trace " + csv), fragment, args);
  EXPECT_FALSE(std::ifstream(csv).good()) << args;
}

TEST(BalanceTime, RefusesBadSpeedsSlowdownsAndPlatforms) {
  const std::string four = "--nodes 4 --topology ring --balance time ";
  for (const char* bad : {"0", "-2", "nan", "inf"})
    expect_refused(four + "--speeds 1,1,1," + std::string(bad),
                   "--speeds 1,1,1," + std::string(bad) + ": speed \"" + bad + "\"; expected a finite relative speed > 0");
  const std::string file = tmp("speeds.txt");
  std::ofstream(file) << "1\n2\nnan\n4\n";
  expect_refused(four + "--speeds " + file, file + ":3: speed \"nan\"; expected a finite relative speed > 0");
  expect_refused(four + "--speeds 1,2,3", "--speeds 1,2,3: 3 speeds for 4 nodes; expected one relative speed per node");
  std::ofstream(file) << "1 2 3 4 5\n";
  expect_refused(four + "--speeds " + file, ": 5 speeds for 4 nodes; expected one relative speed per node");
  expect_refused(four + "--speeds 1,2,3,4 --platform grid", "--speeds 1,2,3,4 with --platform grid: expected --platform cluster");
  expect_refused(four + "--slowdown 4:2:0:1", "--slowdown 4:2:0:1: node 4; expected a node from 0 to 3");
  expect_refused(four + "--slowdown 1:0:0:1", "--slowdown 1:0:0:1: factor \"0\"; expected a finite factor > 0");
  expect_refused(four + "--slowdown 1:-3:0:1", "factor \"-3\"; expected a finite factor > 0");
  expect_refused(four + "--slowdown 1:2:5:3", "--slowdown 1:2:5:3: ends at 3 s, not after its start at 5 s");
  expect_refused(four + "--slowdown 1:2:0:5 --slowdown 1:2:4:9",
                 "--slowdown 1:2:0:5 and --slowdown 1:2:4:9: overlap on node 1; expected disjoint intervals");
  expect_refused(four + "--slowdown 1:2:0", "--slowdown 1:2:0: expected NODE:FACTOR:START:END");
  expect_refused("--nodes 4 --topology ring --balance speed", "speed");
  // A platform file whose hosts have no speed: SimGrid's own check, named with the file.
  const std::string xml = tmp("no-speed.xml");
  std::ofstream(xml) << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
                        "<host id=\"a\"/><host id=\"b\"/><host id=\"c\"/><host id=\"d\"/>\n</zone></platform>\n";
  expect_refused(four + "--platform " + xml, "Required attribute `speed' not set for `host' element");
}

}  // namespace
