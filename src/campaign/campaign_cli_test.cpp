// hetlb campaign: a tiny matrix run on 2 jobs, resumed, in pieces, with a timeout, in fixed-duration
// mode; the report read back by column name; figures.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/campaign_cli_" + name; }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int hetlb(const std::string& args, std::string* out = nullptr, std::string* err = nullptr) {
  // Per test process: ctest -j runs these tests side by side.
  const std::string id = std::to_string(getpid());
  const std::string stdout_path = tmp("stdout-" + id + ".txt"), stderr_path = tmp("stderr-" + id + ".txt");
  const int st = std::system((std::string(HETLB_BINARY_DIR) + "/bin/hetlb campaign " + args + " >" + stdout_path +
                              " 2>" + stderr_path)
                                 .c_str());
  if (out) *out = slurp(stdout_path);
  if (err) *err = slurp(stderr_path);
  std::remove(stdout_path.c_str());
  std::remove(stderr_path.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Rows of a results CSV by column name.
std::vector<std::map<std::string, std::string>> rows(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::map<std::string, std::string>> out;
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (line.back() == ',') cells.push_back("");
    if (header.empty()) {
      header = cells;
      continue;
    }
    EXPECT_EQ(cells.size(), header.size()) << line;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    out.push_back(row);
  }
  return out;
}

const char* const kMatrix = R"({"spec_version": "t1", "strategies": ["besteffort:1", "makhoul"],
  "virtual_load": [false, true], "integer": [true], "platforms": ["cluster"], "nodes": [8], "topologies": ["ring"],
  "initial": ["single"], "ratios": [1, 0.1], "iterations": 20, "results": ")";

TEST(CampaignCli, RunsTheMatrixResumesAndReports) {
  const std::string spec = tmp("spec.json"), csv = tmp("results.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << kMatrix << csv << "\"}";
  std::string out;
  ASSERT_EQ(hetlb(spec + " -j 2", &out), 0);
  auto r = rows(csv);
  ASSERT_EQ(r.size(), 8u);  // 2 strategies x 2 virtual x 2 ratios
  std::set<std::string> strategies;
  for (const auto& row : r) {
    EXPECT_EQ(row.at("spec_version"), "t1+time");  // balanced by time, the default
    EXPECT_EQ(row.at("status"), "ok");
    EXPECT_EQ(row.at("converged"), "1");
    EXPECT_EQ(row.at("iterations"), "20");
    EXPECT_EQ(row.at("time_limit"), "0");
    EXPECT_EQ(row.at("min_lb_iter"), "-1");
    EXPECT_FALSE(row.at("max_convergence_date").empty());
    EXPECT_FALSE(row.at("computed_load").empty());
    strategies.insert(row.at("strategy") + " " + row.at("k"));
  }
  EXPECT_EQ(strategies, (std::set<std::string>{"besteffort 1", "makhoul 1"}));
  // Per configuration, per ratio: every variant ranked, wins counted per ratio, paired virtual load.
  EXPECT_NE(out.find("| makhoul +virtual | 2 | 2 | 0 | 0 | 0 | 0 |"), std::string::npos) << out;
  EXPECT_NE(out.find("ratio 0.1 wins"), std::string::npos) << out;
  EXPECT_NE(out.find("Virtual load, paired"), std::string::npos) << out;
  EXPECT_NE(out.find("Counter-examples"), std::string::npos) << out;

  const std::string svg = tmp("wins.svg"), ranks = tmp("ranks.csv");
  std::remove(svg.c_str());
  std::remove(tmp("wins-lead.svg").c_str());
  std::string err;
  ASSERT_EQ(hetlb(spec + " --plot " + svg + " --ranks " + ranks, &out, &err), 0);  // resumed: nothing to run
  EXPECT_NE(err.find("8 done"), std::string::npos) << err;
  EXPECT_EQ(rows(csv).size(), 8u);
  EXPECT_NE(slurp(svg).find("makhoul"), std::string::npos);  // the wins, drawn
  EXPECT_NE(slurp(tmp("wins-virtual.svg")).find("with virtual load"), std::string::npos);
  EXPECT_NE(slurp(tmp("wins-lead.svg")).find("best of Makhoul and simple"), std::string::npos);
  const auto ranked = rows(ranks);
  ASSERT_EQ(ranked.size(), 8u);
  int firsts = 0;
  for (const auto& row : ranked) firsts += row.at("rank") == "1";
  EXPECT_GE(firsts, 2);  // one winner (or more, tied) in each of the 2 configurations
  EXPECT_EQ(hetlb(spec + " --plot " + tmp("chart.pdf")), 1);  // a bad figure name, refused before running
}

TEST(CampaignCli, RunsInPieces) {
  const std::string spec = tmp("pieces.json"), csv = tmp("pieces.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << kMatrix << csv << "\"}";
  std::string err;
  ASSERT_EQ(hetlb(spec + " -j 2 --max-runs 3", nullptr, &err), 0) << err;
  EXPECT_EQ(rows(csv).size(), 3u);
  EXPECT_NE(err.find("5 settings left"), std::string::npos) << err;
  ASSERT_EQ(hetlb(spec + " -j 2", nullptr, &err), 0) << err;
  EXPECT_NE(err.find("3 done"), std::string::npos) << err;
  EXPECT_EQ(rows(csv).size(), 8u);
}

// A report with nothing complete to compare (here: --max-nodes below every setting) writes no figure
// and succeeds: a study's script goes on to its next piece.
TEST(CampaignCli, NoFigureBeforeAnyResult) {
  const std::string spec = tmp("empty.json"), csv = tmp("empty.csv"), svg = tmp("empty.svg");
  std::remove(csv.c_str());
  std::remove(svg.c_str());
  std::ofstream(spec) << kMatrix << csv << "\"}";
  std::string err;
  ASSERT_EQ(hetlb(spec + " --max-nodes 4 --plot " + svg, nullptr, &err), 0) << err;
  EXPECT_NE(err.find("no figure written to " + svg), std::string::npos) << err;
  EXPECT_FALSE(std::ifstream(svg).good());
}

// --max-nodes: the small settings run (smallest first) and are summarised alone; the rest later.
TEST(CampaignCli, SmallSettingsFirst) {
  const std::string spec = tmp("sizes.json"), csv = tmp("sizes.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": "t1", "strategies": ["besteffort:1", "makhoul"], "virtual_load": false,
    "integer": true, "platforms": ["cluster"], "nodes": [8, 4], "topologies": ["ring"], "initial": ["single"],
    "ratios": [1], "iterations": 20, "results": ")"
                      << csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec + " -j 2 --smallest-first --max-nodes 4", &out, &err), 0) << err;
  const auto r = rows(csv);
  ASSERT_EQ(r.size(), 2u);
  for (const auto& row : r) EXPECT_EQ(row.at("nodes"), "4");
  EXPECT_NE(err.find("2 to run (at most 4 nodes)"), std::string::npos) << err;
  EXPECT_NE(out.find("1 of 1 configurations complete"), std::string::npos) << out;
  ASSERT_EQ(hetlb(spec + " -j 2 --smallest-first", &out, &err), 0) << err;
  EXPECT_EQ(rows(csv).size(), 4u);
  EXPECT_NE(out.find("2 of 2 configurations complete"), std::string::npos) << out;
}

// Runs over the wall-clock timeout (a 256-node line from one loaded node takes minutes): killed,
// recorded as such, not run again unless --retry.
TEST(CampaignCli, RecordsTimeoutsOnce) {
  const std::string spec = tmp("slow.json"), csv = tmp("slow.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": 1, "strategies": "makhoul", "virtual_load": false,
    "integer": false, "platforms": "cluster", "nodes": 256, "topologies": "line", "initial": "single", "ratios": [1, 0.5],
    "iterations": 1000000, "timeout_seconds": 0.5, "results": ")" << csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec + " -j 2", &out, &err), 0) << err;
  auto r = rows(csv);
  ASSERT_EQ(r.size(), 2u);
  for (const auto& row : r) {
    EXPECT_EQ(row.at("status"), "timeout");
    EXPECT_EQ(row.at("wall_seconds"), "0.500");
    EXPECT_EQ(row.at("converged"), "");
    EXPECT_EQ(row.at("error").rfind("over the 0.5 s timeout (", 0), 0u) << row.at("error");
    EXPECT_NE(row.at("error").find(" s of CPU)"), std::string::npos) << row.at("error");
  }
  EXPECT_NE(out.find("| makhoul | 2 | 0 | 0 | 2 | 0 | 0 |"), std::string::npos) << out;  // counted as timeouts
  ASSERT_EQ(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("0 to run"), std::string::npos) << err;
  ASSERT_EQ(hetlb(spec + " -j 2 --retry --timeout 0.2", &out, &err), 0) << err;
  EXPECT_NE(err.find("2 to run"), std::string::npos) << err;
  r = rows(csv);
  ASSERT_EQ(r.size(), 4u);  // the later rows replace the earlier ones
  EXPECT_EQ(r[3].at("wall_seconds"), "0.200");
  EXPECT_NE(out.find("| makhoul | 2 | 0 | 0 | 2 | 0 | 0 |"), std::string::npos) << out;
  // A negative timeout is refused, not taken for the spec's (-1 is only the option's default).
  EXPECT_EQ(hetlb(spec + " --retry --timeout -1", &out, &err), 2);
  EXPECT_NE(err.find("--timeout: value -1: expected a non-negative number"), std::string::npos) << err;
  EXPECT_EQ(rows(csv).size(), 4u);
}

TEST(CampaignCli, FixedDurationMeasuresComputationAndData) {
  const std::string spec = tmp("fixed.json"), csv = tmp("fixed.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": 1, "mode": "fixed_duration", "strategies": ["besteffort", "none"],
    "virtual_load": false, "integer": false, "platforms": "cluster", "nodes": 8, "topologies": "ring",
    "initial": "single", "ratios": 1, "time_limit_tau": 50, "results": ")"
                      << csv << "\"}";
  std::string out;
  ASSERT_EQ(hetlb(spec + " -j 2", &out), 0);
  const auto r = rows(csv);
  ASSERT_EQ(r.size(), 2u);
  std::map<std::string, double> computed;
  for (const auto& row : r) {
    EXPECT_EQ(row.at("converged"), "0");
    EXPECT_EQ(row.at("time_limit"), "50");  // 50 tau, tau = 1000 units x ratio 1 x 1 ms
    EXPECT_DOUBLE_EQ(std::stod(row.at("simulated_time")), 50);
    computed[row.at("strategy")] = std::stod(row.at("computed_load"));
  }
  // Balanced, 8 nodes compute; alone, node 0 computes the whole load once per tau x 8.
  EXPECT_GT(computed["besteffort"], 2 * computed["none"]);
  EXPECT_NE(out.find("Compared metric: computed_load (highest is best)"), std::string::npos) << out;
  // The data moved, ranked from the same rows: 'none' moves nothing, so it wins.
  ASSERT_EQ(hetlb(spec + " --report --metric data_transfer_amount", &out), 0);
  EXPECT_NE(out.find("Compared metric: data_transfer_amount (lowest is best)"), std::string::npos) << out;
  EXPECT_NE(out.find("| none | 1/1 | 1 |"), std::string::npos) << out;
  // An unknown metric: one line, nothing run, the results untouched.
  const std::string before = slurp(csv);
  std::string err;
  EXPECT_EQ(hetlb(spec + " --metric speed", &out, &err), 1);
  EXPECT_EQ(err, "hetlb: error: --metric \"speed\": unknown; expected one of avg_convergence_date, avg_idle_time, "
                 "computed_load, ctrl_messages, data_messages, data_transfer_amount, load_spread_percent, "
                 "max_convergence_date, or a column of the spec's \"metrics_at\" (load_imbalance_at_D, "
                 "time_imbalance_at_D) or \"imbalance_integral\" (load_imbalance_integral, time_imbalance_integral)\n");
  EXPECT_EQ(slurp(csv), before);
}

}  // namespace

namespace {

// lb_phase: the runs take --lb-phase, the rows carry the version "VERSION+staggered", and a file of
// staggered rows is refused to the aligned spec (and the other way round) instead of mixing them.
TEST(CampaignCli, StaggeredPhasesAreTheirOwnVersion) {
  const std::string aligned = tmp("phase-aligned.json"), staggered = tmp("phase-staggered.json");
  const std::string aligned_csv = tmp("phase-aligned.csv"), staggered_csv = tmp("phase-staggered.csv");
  std::remove(aligned_csv.c_str());
  std::remove(staggered_csv.c_str());
  const std::string common = R"({"spec_version": "p1", "strategies": "besteffort:1", "virtual_load": false,
    "integer": false, "platforms": "cluster", "nodes": 16, "topologies": "torus", "initial": "random",
    "seeds": [1, 2], "ratios": 1, "iterations": 20, )";
  std::ofstream(aligned) << common << R"("results": ")" << aligned_csv << "\"}";
  std::ofstream(staggered) << common << R"("lb_phase": "staggered", "results": ")" << staggered_csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(aligned + " -j 2", &out, &err), 0) << err;
  ASSERT_EQ(hetlb(staggered + " -j 2", &out, &err), 0) << err;
  const auto a = rows(aligned_csv), s = rows(staggered_csv);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(s.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a[i].at("spec_version"), "p1+time");
    EXPECT_EQ(s[i].at("spec_version"), "p1+staggered+time");
    EXPECT_EQ(s[i].at("status"), "ok");
  }
  // Staggered phases change the dates of a random start (docs/simulation.md, "Balancing phase").
  EXPECT_NE(a[0].at("max_convergence_date"), s[0].at("max_convergence_date"));
  // The same results file under the other phase: refused, untouched.
  const std::string before = slurp(staggered_csv);
  std::ofstream(aligned) << common << R"("results": ")" << staggered_csv << "\"}";
  EXPECT_NE(hetlb(aligned, &out, &err), 0);
  EXPECT_NE(err.find("p1+staggered"), std::string::npos) << err;
  EXPECT_EQ(slurp(staggered_csv), before);
  // A phase that does not exist.
  std::ofstream(staggered) << common << R"("lb_phase": "sideways", "results": ")" << staggered_csv << "\"}";
  EXPECT_NE(hetlb(staggered, &out, &err), 0);
  EXPECT_NE(err.find("\"lb_phase\" = \"sideways\"; expected \"aligned\" or \"staggered\""), std::string::npos) << err;
  EXPECT_EQ(slurp(staggered_csv), before);
}

// balance: "load" (the default) keeps the version, so committed rows keep their meaning; "time" runs
// --balance time under "VERSION+time". On the real Grid'5000 subset time balancing converges to other
// shares (different dates and data moved); on equal speeds it gives the load rows' metrics.
// Strategy parameters from the spec reach the runs (--param) and a column each ("param_NAME", the value
// as run, empty for a strategy without it; k keeps its key column, 1 for a strategy without k). The
// parameters away from their defaults are part of the key ("params"), so one strategy can be listed
// twice with other values: two variants, both resumed, both in the summary.
TEST(CampaignCli, StrategyParametersHaveTheirOwnColumns) {
  const std::string spec = tmp("params.json"), csv = tmp("params.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": ["besteffort:2", "makhoul", "simple",
    {"strategy": "simple", "params": {"residue_equal": true}}], "virtual_load": false, "integer": false,
    "platforms": "cluster", "nodes": 4, "topologies": "ring", "initial": "single", "ratios": 1, "results": ")"
                      << csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec + " -j 2", &out, &err), 0) << err;
  const std::string header = slurp(csv).substr(0, slurp(csv).find('\n'));
  EXPECT_NE(header.find(",min_lb_iter,params,status,"), std::string::npos) << header;
  EXPECT_TRUE(header.ends_with(",error,build,param_residue_equal")) << header;
  const auto r = rows(csv);
  ASSERT_EQ(r.size(), 4u);
  std::map<std::string, std::string> column, key, k;
  for (const auto& row : r) {
    const std::string variant = row.at("strategy") + "[" + row.at("params") + "]";
    column[variant] = row.at("param_residue_equal");
    k[variant] = row.at("k");
  }
  EXPECT_EQ(k["besteffort[]"], "2");
  EXPECT_EQ(k["makhoul[]"], "1");
  EXPECT_EQ(column["besteffort[]"], "");
  EXPECT_EQ(column["makhoul[]"], "");
  EXPECT_EQ(column["simple[]"], "0");  // the default, as run
  EXPECT_EQ(column["simple[residue_equal=1]"], "1");
  EXPECT_NE(out.find("| simple residue_equal=1 |"), std::string::npos) << out;
  // Resumed: nothing left to run, the same rows.
  const std::string before = slurp(csv);
  ASSERT_EQ(hetlb(spec, &out, &err), 0) << err;
  EXPECT_EQ(slurp(csv), before);
  EXPECT_NE(err.find("4 done"), std::string::npos) << err;
  // The same variant twice, an unknown parameter, a bad entry: refused before any run.
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": ["simple", {"strategy": "simple",
    "params": {"residue_equal": false}}], "nodes": 4, "topologies": "ring"})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("listed twice"), std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": ["makhoul"], "strategy_params": {"makhoul": {"k": 2}}})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("strategy makhoul: unknown parameter \"k\""), std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": [{"strategy": "simple", "alpha": 1}]})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("\"strategies\" = \"alpha\"; expected entries {\"strategy\": NAME"), std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": [{"params": {}}]})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("expected a \"strategy\" in every object entry"), std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": [{"strategy": "simple", "params": {"residue_equal": "yes"}}]})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("expected a number or a boolean for parameter residue_equal"), std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": ["simple"], "strategy_params": {"simple": {"residue_equal": null}}})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("\"strategy_params\" = null; expected a number or a boolean for parameter residue_equal of simple"),
            std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": ["simple"], "strategy_params": {"simple": [1]}})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("expected an object {\"PARAMETER\": VALUE}"), std::string::npos) << err;
  // k as a boolean: the parameter named, as for any other (it was the JSON library's bare message).
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": [{"strategy": "besteffort", "params": {"k": true}}]})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("campaign \"" + spec + "\": \"strategies\""), std::string::npos) << err;
  EXPECT_NE(err.find("strategy besteffort: parameter k = \"true\"; expected a number"), std::string::npos) << err;
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": [{"strategy": "besteffort:2", "params": {"k": 3}}]})";
  EXPECT_NE(hetlb(spec, &out, &err), 0);
  EXPECT_NE(err.find("k given twice (NAME:K and a parameter k); expected one"), std::string::npos) << err;
}

TEST(CampaignCli, TimeBalancingIsItsOwnVersion) {
  const std::string load = tmp("balance-load.json"), time = tmp("balance-time.json");
  const std::string load_csv = tmp("balance-load.csv"), time_csv = tmp("balance-time.csv");
  std::remove(load_csv.c_str());
  std::remove(time_csv.c_str());
  const std::string common = R"({"spec_version": "b1", "strategies": "besteffort:1", "virtual_load": false,
    "integer": false, "platforms": ["cluster", "grid-real"], "nodes": 16, "topologies": "torus", "initial": "random",
    "ratios": 1, "iterations": 20, )";
  std::ofstream(load) << common << R"("balance": "load", "results": ")" << load_csv << "\"}";
  std::ofstream(time) << common << R"("balance": "time", "results": ")" << time_csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(load + " -j 2", &out, &err), 0) << err;
  ASSERT_EQ(hetlb(time + " -j 2", &out, &err), 0) << err;
  auto l = rows(load_csv), t = rows(time_csv);
  ASSERT_EQ(l.size(), 2u);
  ASSERT_EQ(t.size(), 2u);
  const auto by_platform = [](const auto& a, const auto& b) { return a.at("platform") < b.at("platform"); };
  std::sort(l.begin(), l.end(), by_platform);  // -j 2: rows in the order runs end
  std::sort(t.begin(), t.end(), by_platform);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(l[i].at("spec_version"), "b1");
    EXPECT_EQ(t[i].at("spec_version"), "b1+time");
    ASSERT_EQ(t[i].at("status"), "ok") << t[i].at("error");
    ASSERT_EQ(l[i].at("platform"), t[i].at("platform"));
    for (const char* metric : {"max_convergence_date", "data_transfer_amount", "ctrl_messages"})
      if (l[i].at("platform") == "cluster")
        EXPECT_EQ(l[i].at(metric), t[i].at(metric)) << metric;
      else
        EXPECT_NE(l[i].at(metric), t[i].at(metric)) << metric;
  }
  const std::string before = slurp(time_csv);
  std::ofstream(time) << common << R"("balance": "speed", "results": ")" << time_csv << "\"}";
  EXPECT_NE(hetlb(time, &out, &err), 0);
  EXPECT_NE(err.find("\"balance\" = \"speed\"; expected \"load\" or \"time\""), std::string::npos) << err;
  EXPECT_EQ(slurp(time_csv), before);
}

// balancer: "diffusion" (the default) keeps the version and the columns; "global" runs --balancer
// global under "VERSION+global" with the result column global_step_count; an unknown one is refused in
// one line, nothing run.
TEST(CampaignCli, BalancerIsItsOwnVersionWithItsStepCount) {
  const std::string plain = tmp("balancer-plain.json"), global = tmp("balancer-global.json");
  const std::string plain_csv = tmp("balancer-plain.csv"), global_csv = tmp("balancer-global.csv");
  std::remove(plain_csv.c_str());
  std::remove(global_csv.c_str());
  const std::string common = R"({"spec_version": "g1", "strategies": "besteffort:1", "virtual_load": false,
    "integer": false, "platforms": "cluster", "nodes": 16, "topologies": "torus", "initial": "single",
    "ratios": 1, "load_per_node": 100, "iterations": 20, )";
  std::ofstream(plain) << common << R"("balancer": "diffusion", "results": ")" << plain_csv << "\"}";
  std::ofstream(global) << common << R"("balancer": "global", "results": ")" << global_csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(plain, &out, &err), 0) << err;
  ASSERT_EQ(hetlb(global, &out, &err), 0) << err;
  const auto p = rows(plain_csv), g = rows(global_csv);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(p[0].at("spec_version"), "g1+time");
  EXPECT_FALSE(p[0].contains("global_step_count"));
  EXPECT_TRUE(slurp(plain_csv).substr(0, slurp(plain_csv).find('\n')).ends_with(",error,build"));
  EXPECT_EQ(g[0].at("spec_version"), "g1+time+global");
  ASSERT_EQ(g[0].at("status"), "ok") << g[0].at("error");
  EXPECT_GE(std::stoi(g[0].at("global_step_count")), 1);
  EXPECT_EQ(g[0].at("converged"), "1");
  const std::string before = slurp(global_csv);
  std::ofstream(global) << common << R"("balancer": "zoltan", "results": ")" << global_csv << "\"}";
  EXPECT_NE(hetlb(global, &out, &err), 0);
  EXPECT_EQ(err, "hetlb: error: campaign \"" + global +
                     "\": \"balancer\" = \"zoltan\"; expected \"diffusion\", \"global\" or \"hybrid\"\n");
  EXPECT_EQ(out, "");
  EXPECT_EQ(slurp(global_csv), before);
}

// coalesce_data: the runs take --coalesce-data and their rows the version "VERSION+coalesced"; on the
// grid at ratio 0.1, where the draft's model queues data messages, coalesced runs send fewer.
TEST(CampaignCli, CoalescedDataIsItsOwnVersion) {
  const std::string plain = tmp("coalesce-plain.json"), coalesced = tmp("coalesce-on.json");
  const std::string plain_csv = tmp("coalesce-plain.csv"), coalesced_csv = tmp("coalesce-on.csv");
  std::remove(plain_csv.c_str());
  std::remove(coalesced_csv.c_str());
  const std::string common = R"({"spec_version": "p1", "strategies": "besteffort:1", "virtual_load": false,
    "integer": false, "platforms": "grid", "nodes": 16, "topologies": "hypercube", "initial": "single",
    "ratios": 0.1, "iterations": 200, )";
  std::ofstream(plain) << common << R"("coalesce_data": false, "results": ")" << plain_csv << "\"}";
  std::ofstream(coalesced) << common << R"("coalesce_data": true, "results": ")" << coalesced_csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(plain, &out, &err), 0) << err;
  ASSERT_EQ(hetlb(coalesced, &out, &err), 0) << err;
  const auto p = rows(plain_csv), c = rows(coalesced_csv);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(p[0].at("spec_version"), "p1+time");
  EXPECT_EQ(c[0].at("spec_version"), "p1+coalesced+time");
  ASSERT_EQ(c[0].at("status"), "ok") << c[0].at("error");
  EXPECT_LT(std::stoull(c[0].at("data_messages")), std::stoull(p[0].at("data_messages")));
  // Not a boolean: refused in one line, the results untouched.
  const std::string before = slurp(coalesced_csv);
  std::ofstream(coalesced) << common << R"("coalesce_data": "yes", "results": ")" << coalesced_csv << "\"}";
  EXPECT_NE(hetlb(coalesced, &out, &err), 0);
  EXPECT_NE(err.find("\"coalesce_data\" = \"yes\"; expected true or false"), std::string::npos) << err;
  EXPECT_EQ(slurp(coalesced_csv), before);
}

}  // namespace

// --only COLUMN=VALUES runs and summarises a slice of the matrix (the other settings stay to run);
// a column or value the spec does not have is refused in one line before anything runs.
namespace {
TEST(CampaignCli, OnlyRunsAndSummarisesASlice) {
  const std::string spec = tmp("only.json"), csv = tmp("only.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << kMatrix << csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec + " --only ratio=0.1 --only strategy=makhoul,besteffort", &out, &err), 0) << err;
  EXPECT_NE(err.find("4 to run (ratio=0.1; strategy=besteffort,makhoul) on 1 jobs"), std::string::npos) << err;
  auto r = rows(csv);
  ASSERT_EQ(r.size(), 4u);  // 2 strategies x 2 virtual, ratio 0.1 only
  for (const auto& row : r) EXPECT_EQ(row.at("ratio"), "0.1");
  EXPECT_NE(out.find("1 of 1 configurations complete"), std::string::npos) << out;
  ASSERT_EQ(hetlb(spec + " --report --only ratio=1", &out, &err), 0) << err;
  EXPECT_NE(out.find("0 of 1 configurations complete"), std::string::npos) << out;
  // What is left, timed by the runs most like it (the other ratio's: same nodes, topology, time limit).
  EXPECT_NE(err.find("hetlb campaign: 4 of 8 settings left to run (ratio=1); on 1 jobs, about "), std::string::npos)
      << err;
  ASSERT_EQ(hetlb(spec + " --only strategy=makhoul --only ratio=1", &out, &err), 0) << err;
  EXPECT_EQ(rows(csv).size(), 6u);  // makhoul, ratio 1: 2 more
  ASSERT_EQ(hetlb(spec, &out), 0);
  EXPECT_EQ(rows(csv).size(), 8u);
  ASSERT_EQ(hetlb(spec + " --report --only ratio=1 --only ratio=0.1", &out, &err), 0);  // one column twice: both lists
  EXPECT_NE(out.find("2 of 2 configurations complete"), std::string::npos) << out;
  EXPECT_EQ(err.find("left to run"), std::string::npos) << err;  // nothing left: no line
  const std::string before = slurp(csv);
  for (const auto& [args, expected, code] : std::vector<std::tuple<std::string, std::string, int>>{
           {"--only topology=line", "--only topology=line: campaign \"" + spec +
                                        "\" has no setting with topology line; expected one of ring", 1},
           {"--only colour=red", "--only colour: no such column; expected one of estimates, initial", 1},
           {"--only spec_version=t1", "--only spec_version: no such column", 1},
           {"--only topology", "topology: expected COLUMN=VALUE[,VALUE...]", 2},
           {"--only =ring", "=ring: expected COLUMN=VALUE[,VALUE...]", 2},
           {"--only ratio=1,,0.1", "an empty value", 2}}) {
    EXPECT_EQ(hetlb(spec + " --retry " + args, &out, &err), code) << args;
    EXPECT_NE(err.find(expected), std::string::npos) << args << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_EQ(slurp(csv), before);
  }
}

// --only params= is the variants with the default parameters (the empty params key), alone or with others.
TEST(CampaignCli, OnlyTheDefaultParameters) {
  const std::string spec = tmp("only-params.json"), csv = tmp("only-params.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": "t1", "strategies": ["simple", {"strategy": "simple", "params": {"residue_equal": true}}],
    "virtual_load": [false], "integer": [false], "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"],
    "initial": ["single"], "ratios": [1], "iterations": 20, "results": ")"
                      << csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec + " --only params=", &out, &err), 0) << err;
  auto r = rows(csv);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].at("params"), "");
  ASSERT_EQ(hetlb(spec + " --only params=,residue_equal=1", &out, &err), 0) << err;
  EXPECT_EQ(rows(csv).size(), 2u);
  EXPECT_EQ(hetlb(spec + " --only params=alpha=1", &out, &err), 1);
  EXPECT_NE(err.find("expected one of \"\" (the defaults), residue_equal=1"), std::string::npos) << err;
  EXPECT_EQ(hetlb(spec + " --only topology=", &out, &err), 2);  // an empty value is the parameters' only
  EXPECT_NE(err.find("topology=: expected COLUMN=VALUE"), std::string::npos) << err;
}
}  // namespace

namespace {
// A results file's text with every row's cell of `column` replaced by `value`, or the column removed
// (value == nullptr), as a file written before the column existed.
std::string with_column(const std::string& text, const std::string& column, const char* value) {
  std::stringstream in(text), out;
  std::size_t at = std::string::npos;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (line.back() == ',') cells.push_back("");
    if (at == std::string::npos) {
      at = static_cast<std::size_t>(std::find(cells.begin(), cells.end(), column) - cells.begin());
      if (!value) cells.erase(cells.begin() + static_cast<long>(at));
    } else if (value) {
      cells.at(at) = value;
    } else {
      cells.erase(cells.begin() + static_cast<long>(at));
    }
    std::string joined;
    for (std::size_t i = 0; i < cells.size(); ++i) joined += (i ? "," : "") + cells[i];
    out << joined << "\n";
  }
  return out.str();
}
}  // namespace

// Every row names the build that made it (12 hex digits of the commit, -dirty with uncommitted changes);
// a results file with rows of another build, or rows without one ("unrecorded", files written before
// the column), is refused in one line unless --allow-mixed-builds, and the summary then names the builds.
TEST(CampaignCli, RowsNameTheirBuildAndBuildsDoNotMixUnlessAllowed) {
  const std::string spec = tmp("builds.json"), csv = tmp("builds.csv");
  std::remove(csv.c_str());
  const std::string base = R"({"spec_version": "b1", "strategies": ["makhoul"], "virtual_load": false,
    "integer": false, "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"], "initial": ["single"],
    "iterations": 20, "results": ")" + csv + "\", \"ratios\": ";
  std::ofstream(spec) << base << "[1]}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec, &out, &err), 0) << err;
  auto r = rows(csv);
  ASSERT_EQ(r.size(), 1u);
  const std::regex build("^([0-9a-f]{12}(-dirty)?|unknown)$");
  EXPECT_TRUE(std::regex_match(r[0].at("build"), build)) << r[0].at("build");
  EXPECT_EQ(out.find("Builds mixed"), std::string::npos) << out;
  const std::string header = slurp(csv).substr(0, slurp(csv).find('\n'));
  EXPECT_TRUE(header.ends_with(",error,build")) << header;

  // Rows of another build: refused before any run, file untouched.
  const std::string edited = with_column(slurp(csv), "build", "feedfeedfeed");
  std::ofstream(csv) << edited;
  const std::string other = slurp(csv);
  // Nothing left to run adds nothing: no refusal, file untouched.
  ASSERT_EQ(hetlb(spec, &out, &err), 0) << err;
  EXPECT_EQ(slurp(csv), other);
  std::ofstream(spec) << base << "[1, 0.1]}";
  ASSERT_EQ(hetlb(spec, &out, &err), 1);
  EXPECT_NE(err.find("rows of another build, feedfeedfeed (1 rows)"), std::string::npos) << err;
  EXPECT_NE(err.find("--allow-mixed-builds"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_EQ(slurp(csv), other);
  ASSERT_EQ(hetlb(spec + " --allow-mixed-builds", &out, &err), 0) << err;
  EXPECT_EQ(rows(csv).size(), 2u);
  EXPECT_NE(out.find("Builds mixed in these results: "), std::string::npos) << out;
  EXPECT_NE(out.find("feedfeedfeed (1 rows)"), std::string::npos) << out;

  // A file written before the build and params columns: its rows are "unrecorded" and keep their key
  // (no params: every parameter at its default); with the flag the file gets the columns (empty in its
  // old rows), the new rows their build, and the old row is not run again.
  std::ofstream(spec) << base << "[1]}";
  std::ofstream(csv) << with_column(with_column(other, "build", nullptr), "params", nullptr);
  const std::string old = slurp(csv);
  ASSERT_EQ(old.find("build"), std::string::npos);
  ASSERT_EQ(old.find("params"), std::string::npos);
  std::ofstream(spec) << base << "[1, 0.1]}";
  ASSERT_EQ(hetlb(spec, &out, &err), 1);
  EXPECT_NE(err.find("rows of another build, unrecorded (1 rows)"), std::string::npos) << err;
  EXPECT_EQ(slurp(csv), old);
  ASSERT_EQ(hetlb(spec + " --allow-mixed-builds", &out, &err), 0) << err;
  r = rows(csv);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].at("build"), "");
  EXPECT_EQ(r[0].at("params"), "");
  EXPECT_TRUE(std::regex_match(r[1].at("build"), build)) << r[1].at("build");
  EXPECT_NE(slurp(csv).substr(0, slurp(csv).find('\n')).find(",error,params,build"), std::string::npos);
  EXPECT_NE(out.find("unrecorded (1 rows)"), std::string::npos) << out;
  // Read back alone (--report-only), an old file is a file of one build: the summary names none.
  std::ofstream(csv) << old;
  std::ofstream(spec) << base << "[1]}";
  ASSERT_EQ(hetlb(spec + " --report", &out, &err), 0) << err;
  EXPECT_EQ(out.find("Builds mixed"), std::string::npos) << out;
}

// The imbalance over time as results: columns of their own after the fixed ones, ranked by --metric
// like the others (runs that did not converge compare too), and the figure of the values per variant.
TEST(CampaignCli, ImbalanceOverTimeIsAskedForRankedAndDrawn) {
  const std::string spec = tmp("imbalance.json"), csv = tmp("imbalance.csv"), svg = tmp("imbalance.svg");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": "i1", "strategies": ["none", "makhoul"], "virtual_load": false,
    "integer": false, "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"], "initial": ["random"],
    "seeds": [1, 2], "ratios": [1], "load_per_node": 100, "iterations": 10, "time_limit": 3, "metrics_at": [0.5, 2],
    "imbalance_integral": true, "results": ")" << csv << "\"}";
  std::string out, err;
  ASSERT_EQ(hetlb(spec + " -j 2 --metric load_imbalance_integral --plot " + svg, &out, &err), 0) << err;
  const std::string header = slurp(csv).substr(0, slurp(csv).find('\n'));
  EXPECT_TRUE(header.ends_with(",error,build,load_imbalance_at_0.5,time_imbalance_at_0.5,load_imbalance_at_2,"
                               "time_imbalance_at_2,load_imbalance_integral,time_imbalance_integral"))
      << header;
  const auto r = rows(csv);
  ASSERT_EQ(r.size(), 4u);
  for (const auto& row : r) {
    const double at2 = std::stod(row.at("load_imbalance_at_2")), area = std::stod(row.at("load_imbalance_integral"));
    EXPECT_GE(at2, 1);
    EXPECT_GT(area, 0);
    // Without balancing the random start stays: its imbalance at 0.5 and at 2 are the same.
    if (row.at("strategy") == "none") {
      EXPECT_EQ(row.at("load_imbalance_at_0.5"), row.at("load_imbalance_at_2"));
    }
  }
  EXPECT_NE(out.find("load_imbalance_integral"), std::string::npos) << out;
  EXPECT_GT(std::filesystem::file_size(tmp("imbalance-values.svg")), 0u);
  // Makhoul balances: it wins every configuration on the area under the imbalance curve.
  ASSERT_EQ(hetlb(spec + " --report --metric load_imbalance_integral --ranks " + tmp("imbalance-ranks.csv"), &out,
                  &err),
            0)
      << err;
  for (const auto& row : rows(tmp("imbalance-ranks.csv")))
    if (row.at("variant").starts_with("makhoul")) {
      EXPECT_EQ(row.at("rank"), "1") << row.at("configuration");
    }
  // A date the spec does not ask for has no values: refused, naming the spec's columns.
  const std::string results = slurp(csv);
  EXPECT_EQ(hetlb(spec + " --report --metric load_imbalance_at_3", &out, &err), 1);
  EXPECT_NE(err.find("--metric \"load_imbalance_at_3\": campaign \"" + spec +
                     "\" does not ask for it; expected one of its columns load_imbalance_at_0.5, time_imbalance_at_0.5, "
                     "load_imbalance_at_2, time_imbalance_at_2, load_imbalance_integral, time_imbalance_integral"),
            std::string::npos)
      << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_EQ(slurp(csv), results);

  // Bad values: one line naming the key, before any run.
  const std::string bad = tmp("imbalance-bad.json");
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"metrics_at", "[-1]"}, {"metrics_at", "[]"}, {"metrics_at", "[1, 1]"}, {"metrics_at", "\"soon\""},
           {"imbalance_integral", "\"yes\""}}) {
    std::ofstream(bad) << R"({"spec_version": "i1", "strategies": ["none"], "nodes": [4], "topologies": ["ring"],
      "results": ")" << tmp("imbalance-bad.csv") << "\", \"" << key << "\": " << value << "}";
    EXPECT_EQ(hetlb(bad, &out, &err), 1) << key << value;
    EXPECT_NE(err.find("\"" + key + "\""), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(std::filesystem::exists(tmp("imbalance-bad.csv")));
  }
}
