// hetlb campaign: a tiny matrix run on 2 jobs, then resumed (nothing left to run), and bad specs.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/campaign_cli_" + name; }

int hetlb(const std::string& args, std::string* out = nullptr) {
  const std::string stdout_path = tmp("stdout.txt");
  const int st = std::system((std::string(HETLB_BINARY_DIR) + "/bin/hetlb campaign " + args + " >" + stdout_path +
                              " 2>" + tmp("stderr.txt"))
                                 .c_str());
  if (out) {
    std::ifstream in(stdout_path);
    std::stringstream s;
    s << in.rdbuf();
    *out = s.str();
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int lines(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string l; std::getline(in, l);) ++n;
  return n;
}

TEST(CampaignCli, RunsTheMatrixAndResumes) {
  const std::string spec = tmp("spec.json"), csv = tmp("results.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"strategies": ["besteffort:1", "makhoul"], "virtual_load": [true], "integer": [true],
    "platforms": ["cluster"], "nodes": [8], "topologies": ["ring"], "initial": ["single", "random"],
    "ratios": [1], "iterations": 20, "results": ")" + csv + "\"}";
  std::string out;
  ASSERT_EQ(hetlb(spec + " -j 2", &out), 0);
  EXPECT_EQ(lines(csv), 5);  // header + 2 strategies x 2 initial loads
  EXPECT_NE(out.find("| besteffort k=1 +virtual integer | 2 | 2 |"), std::string::npos) << out;
  const std::string svg = tmp("strategies.svg");
  std::remove(svg.c_str());
  ASSERT_EQ(hetlb(spec + " --plot " + svg), 0);  // resumed: nothing to run, nothing added
  EXPECT_EQ(lines(csv), 5);
  std::ifstream chart(svg);
  std::stringstream text;
  text << chart.rdbuf();
  EXPECT_NE(text.str().find("makhoul"), std::string::npos);  // the summary, drawn
  EXPECT_EQ(hetlb(spec + " --plot " + tmp("chart.pdf")), 1);  // a bad figure name, refused before running
}

TEST(CampaignCli, RefusesBadSpecs) {
  const std::string spec = tmp("bad.json");
  std::ofstream(spec) << "{\"nodes\": \"many\"}";
  EXPECT_EQ(hetlb(spec), 1);
  std::ofstream(spec) << "{not json";
  EXPECT_EQ(hetlb(spec), 1);
  EXPECT_EQ(hetlb(tmp("missing.json")), 1);
}

}  // namespace
