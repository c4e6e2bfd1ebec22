// hetlb campaign's outputs (--ranks, --plot, the results' new columns) never replace its inputs nor
// write through a planted link: one error line, exit 1, the spec and the results untouched.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/campaign_outputs_" + name; }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int hetlb(const std::string& args, std::string* err = nullptr) {
  const std::string path = tmp("stderr-" + std::to_string(getpid()) + ".txt");  // ctest -j: one per test
  const int st =
      std::system((std::string(HETLB_BINARY_DIR) + "/bin/hetlb campaign " + args + " >/dev/null 2>" + path).c_str());
  if (err) *err = slurp(path);
  std::remove(path.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// One setting (4 nodes, 20 iterations): a results file in a fraction of a second.
std::string spec_text(const std::string& csv, const std::string& more = "") {
  return R"({"spec_version": "o1", "strategies": ["makhoul"], "virtual_load": false, "integer": false,
    "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"], "initial": ["single"], "iterations": 20,
    )" + more + R"("results": ")" + csv + "\"}";
}

TEST(CampaignOutputs, AnOutputThatIsTheSpecOrItsResultsIsRefused) {
  const std::string spec = tmp("inputs.json"), csv = tmp("inputs.csv"), link = tmp("inputs-link.csv");
  std::remove(csv.c_str());
  std::remove(link.c_str());
  std::ofstream(spec) << spec_text(csv, R"("ratios": [1], )");
  std::string err;
  ASSERT_EQ(hetlb(spec, &err), 0) << err;
  const std::string results = slurp(csv), specified = slurp(spec);
  ASSERT_NE(results.find("makhoul"), std::string::npos);
  fs::create_symlink(csv, link);
  const struct {
    std::string args, expected;
  } cases[] = {
      {spec + " --ranks " + csv, "--ranks \"" + csv + "\": is an input of this command; expected another file"},
      {spec + " --report --ranks " + csv, "--ranks \"" + csv + "\": is an input of this command"},
      {spec + " --report --ranks " + link, "--ranks \"" + link + "\": is an input of this command (\"" + csv + "\")"},
      {spec + " --ranks " + spec, "--ranks \"" + spec + "\": is an input of this command"},
      {spec + " --report --plot " + tmp("x.svg") + " --ranks " + tmp("x.svg"),
       "--ranks \"" + tmp("x.svg") + "\": is also the output of --plot"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(hetlb(c.args, &err), 1) << c.args;
    EXPECT_EQ(err.rfind("hetlb: error: ", 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find(c.expected), std::string::npos) << err;
    EXPECT_EQ(slurp(csv), results) << c.args;
    EXPECT_EQ(slurp(spec), specified) << c.args;
  }
  EXPECT_FALSE(fs::exists(tmp("x.svg")));
  fs::remove(link);
}

// The results get the columns a spec adds through a new file beside them, created exclusively: a link
// planted at the name it once had (RESULTS.upgrade.tmp) is not written through.
TEST(CampaignOutputs, NewColumnsNeverGoThroughAPlantedLink) {
  const std::string spec = tmp("upgrade.json"), csv = tmp("upgrade.csv"), victim = tmp("upgrade-victim.txt");
  const std::string planted = csv + ".upgrade.tmp";
  std::remove(csv.c_str());
  std::remove(planted.c_str());
  std::ofstream(spec) << spec_text(csv, R"("ratios": [1], )");
  std::string err;
  ASSERT_EQ(hetlb(spec, &err), 0) << err;
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, planted);
  std::ofstream(spec) << spec_text(csv, R"("ratios": [1, 0.1], "imbalance_integral": true, )");
  ASSERT_EQ(hetlb(spec, &err), 0) << err;
  EXPECT_EQ(slurp(victim), "precious\n");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(csv)));
  const std::string text = slurp(csv);
  EXPECT_NE(text.substr(0, text.find('\n')).find("load_imbalance_integral"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;  // the header and both rows
  fs::remove(planted);
  std::remove(victim.c_str());
}

}  // namespace
