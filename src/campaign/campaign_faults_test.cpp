// hetlb campaign under bad input and faults: one clear line, exit 1, the results file untouched;
// a campaign killed with SIGKILL and restarted; two campaigns on one results file.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>

namespace {

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/campaign_faults_" + name; }

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

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// `hetlb campaign SPEC --results CSV -j JOBS` started in the background: stdout to /dev/null, stderr
// to `err` (/dev/null when empty), in a process group of its own when `own_group` (as a shell job).
pid_t start_campaign(const std::string& spec, const std::string& csv, const std::string& jobs,
                     const std::string& err = "", bool own_group = false) {
  const pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0 && own_group) setpgid(pid, pid);
    return pid;
  }
  if (own_group) setpgid(0, 0);
  const int null = open("/dev/null", O_WRONLY);
  dup2(null, 1);
  dup2(err.empty() ? null : open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
  const std::string exe = std::string(HETLB_BINARY_DIR) + "/bin/hetlb";
  execl(exe.c_str(), "hetlb", "campaign", spec.c_str(), "-j", jobs.c_str(), "--results", csv.c_str(), nullptr);
  _exit(127);
}

// Waits (a minute at most) until the campaign `pid` has written two rows to `csv`, stops it (SIGSTOP)
// and returns the file as it is then.
std::string stop_after_two_rows(pid_t pid, const std::string& csv) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_lines(slurp(csv)) < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  kill(pid, SIGSTOP);
  return slurp(csv);
}

// The specs' common keys, with their ratios and iterations (each key once: a duplicate is refused).
std::string base(const std::string& ratios = "[1]", const std::string& iterations = "20") {
  return R"("strategies": ["besteffort", "makhoul"], "virtual_load": [false, true],
  "integer": [true], "platforms": ["cluster"], "nodes": [8], "topologies": ["ring"], "initial": ["single"],
  "ratios": )" + ratios + ", \"iterations\": " + iterations;
}
const std::string kBase = base();

// A spec refused: exit 1, one line naming the problem, the existing results file unchanged. `name`: the
// files' (one per test: ctest -j runs the tests of this program side by side).
void expect_refused(const std::string& body, const std::string& expected, const std::string& extra = "",
                    const std::string& name = "bad") {
  const std::string spec = tmp(name + ".json"), csv = tmp(name + ".csv");
  std::ofstream(csv) << "precious\n";
  std::ofstream(spec) << body;
  std::string err;
  EXPECT_EQ(hetlb(spec + " --results " + csv + extra, &err), 1) << body;
  EXPECT_EQ(count_lines(err), 1) << err;
  EXPECT_NE(err.find(expected), std::string::npos) << err;
  EXPECT_EQ(slurp(csv), "precious\n");
}

// Outputs written after the runs (rankings, figures) are checked before them: a campaign of hours never
// ends on a path it cannot write. Nothing runs, no results file is created.
TEST(CampaignFaults, RefusesUnwritableOutputsBeforeAnyRun) {
  const std::string spec = tmp("outputs.json"), csv = tmp("outputs.csv");
  std::ofstream(spec) << "{\"spec_version\": 1, " + kBase + "}";
  const auto refused = [&](const std::string& extra, const std::string& expected) {
    std::filesystem::remove(csv);
    std::string err;
    EXPECT_EQ(hetlb(spec + " --results " + csv + " " + extra, &err), 1) << extra;
    EXPECT_EQ(count_lines(err), 1) << err;
    EXPECT_NE(err.find(expected), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(csv)) << extra;
  };
  refused("--ranks " + tmp("no-such-folder/ranks.csv"), "ranks.csv\": its folder does not exist; expected a writable path");
  refused("--plot " + tmp("no-such-folder/wins.svg"), "wins.svg\": its folder does not exist");
  refused("--ranks " + std::string(HETLB_BINARY_DIR), "\": is a directory; expected a writable path");
  refused("--min-nodes 10 --max-nodes 5", "--min-nodes 10 --max-nodes 5: expected at most as many nodes");
}

// A count past its type was saturated by CLI11 (a piece of 1e23 runs became INT64_MAX), silently.
TEST(CampaignFaults, RefusesCountsPastTheirRange) {
  const std::string spec = tmp("counts.json"), csv = tmp("counts.csv");
  std::ofstream(spec) << "{\"spec_version\": 1, " + kBase + "}";
  for (const std::string value : {"99999999999999999999999", "-1", "2.5"}) {
    std::filesystem::remove(csv);
    std::string err;
    EXPECT_EQ(hetlb(spec + " --results " + csv + " --max-runs " + value, &err), 2) << value;
    EXPECT_EQ(count_lines(err), 1) << err;
    EXPECT_NE(err.find("--max-runs: value " + value + ": expected a whole number from 0 to"), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(csv)) << value;
  }
}

TEST(CampaignFaults, RefusesBadSpecsInOneLine) {
  expect_refused("{\"spec_version\": 1, " + kBase + ", \"colour\": 3}", "unknown key \"colour\"");
  expect_refused("{\"spec_version\": 1, " + kBase + ", \"seeds\": []}", "\"seeds\" = []; expected a non-empty list");
  expect_refused(R"({"spec_version": 1, "strategies": ["fastest"]})", "\"strategies\" = \"fastest\"");
  expect_refused(R"({"spec_version": 1, "topologies": ["star"]})", "\"topologies\" = \"star\"");
  expect_refused(R"({"spec_version": 1, "nodes": "many"})", "\"nodes\" = \"many\"");
  expect_refused(R"({"spec_version": 1, "nodes": [12], "topologies": ["hypercube"]})", "power of 2");
  expect_refused(R"({"spec_version": 1, "mode": "forever"})", "\"mode\" = \"forever\"");
  expect_refused(R"({"spec_version": 1, "mode": [0]})", "\"mode\" = [0]");
  // Whole numbers in range only (a JSON 1e126 read as an int is undefined behaviour).
  expect_refused(R"({"spec_version": 1, "nodes": [1e126]})", "expected a non-empty list of node counts from 2 to 16384");
  expect_refused(R"({"spec_version": 1, "nodes": [32768], "topologies": ["ring"]})",
                 "\"nodes\" = 32768; expected node counts from 2 to 16384");
  expect_refused(R"({"spec_version": 1, "nodes": [16.5]})", "\"nodes\" = [16.5]");
  expect_refused(R"({"spec_version": 1, "seeds": 18446744073709551615})", "\"seeds\" = 18446744073709551615");
  expect_refused("{\"spec_version\": 1, \"\\\\\\nodes\": [16]}", "unknown key \"\\\\\\nodes\"");  // no line break
  expect_refused(R"({"spec_version": 1, "mode": "fixed_duration"})", "positive durations in mode fixed_duration");
  expect_refused("{" + kBase + "}", "no \"spec_version\"");
  expect_refused("{\"spec_version\": \"" + std::string(201, 'v') + "\", " + kBase + "}",
                 "expected a non-empty string of at most 200 characters");
  expect_refused("{\"spec_version\": \"v\\u0001\", " + kBase + "}", "without commas, quotes or control characters");
  expect_refused(R"({"spec_version": 1, "strategies": ["plugin:/tmp/a,b.so"]})",
                 "a strategy without commas, quotes or line breaks (it is a cell of the results file)");
  expect_refused("{not json", "malformed JSON");
  // The default matrix: 2 x 2 x 2 x 2 x 4 x 3 x 2 x 3 x 4 strategies = 2304 settings, more than 1000.
  expect_refused(R"({"spec_version": 1})", "2304 settings; expected at most 1000 without --yes");
  EXPECT_EQ(hetlb(tmp("missing.json")), 1);
  expect_refused(R"({"spec_version": 1, "min_lb_iter": [0]})", "\"min_lb_iter\" = 0.0; expected durations of at least 1e-07 s");
  expect_refused(R"({"spec_version": 1, "min_comp_iter": [0]})", "\"min_comp_iter\" = 0.0; expected durations of at least");
  // Runs the simulator would refuse, refused before any (they were recorded as failed runs).
  expect_refused(R"({"spec_version": 1, "ratios": [1, 1e300]})", "\"ratios\" 1e+300 on 1024 nodes: total load 1024000 x ratio 1e+300: inf flops");
  expect_refused(R"({"spec_version": 1, "load_per_node": 1e-300, "ratios": 1})", "expected tau >= 1e-06 s");
  expect_refused(R"({"spec_version": 1, "load_per_node": 1e5, "ratios": 1e298, "nodes": [4], "topologies": ["ring"]})",
                 "\"ratios\" 1e+298 on 4 nodes: total load 400000 x ratio 1e+298: inf flops");
  // A time limit in tau beyond a double's range (each run would be refused by the simulator).
  expect_refused(R"({"spec_version": 1, "mode": "fixed_duration", "time_limit_tau": 1e308, "ratios": 10})",
                 "a time limit of inf s; expected finite amounts");
  // Below the clock's resolution an activity would repeat at one date: refused like 0.
  expect_refused(R"({"spec_version": 1, "min_lb_iter": [1, 1e-30]})", "\"min_lb_iter\" = 1e-30; expected durations");
  expect_refused(R"({"spec_version": 1, "min_comp_iter": 5e-8})", "\"min_comp_iter\" = 5e-08; expected durations");
  // Integers: exact bounds of int (node counts are checked against their own range after).
  expect_refused(R"({"spec_version": 1, "nodes": [2147483648]})", "\"nodes\" = [2147483648]");
  expect_refused(R"({"spec_version": 1, "nodes": [-2147483649]})", "\"nodes\" = [-2147483649]");
  expect_refused(R"({"spec_version": 1, "nodes": [2147483648.0]})", "\"nodes\" = [2147483648.0]");
  expect_refused(R"({"spec_version": 1, "nodes": [true]})", "\"nodes\" = [true]");
  // Past 2^53 a float has lost digits already (1e17 + 1 reads as 1e17): the same rule as every reader.
  expect_refused(R"({"spec_version": 1, "seeds": [1e17]})", "\"seeds\" = [1e+17]");
  // A matrix too large to build, and a complete graph too large to hold: refused at once.
  expect_refused(R"({"spec_version": 1, "seeds": [)" + std::string(1000, ' ') + R"(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                     "ratios": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
                     "load_per_node": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]})",
                 "more than 100000 settings", " --yes");
  expect_refused(R"({"spec_version": 1, "nodes": [8192], "topologies": ["complete"]})", "expected at most 4096");
  const std::string dir = tmp("a-directory.json");
  std::filesystem::create_directories(dir);
  std::string err;
  EXPECT_EQ(hetlb(dir, &err), 1);
  EXPECT_NE(err.find("is a directory; expected a JSON specification"), std::string::npos) << err;
}

// A matrix past the settings limit is refused from its lists' lengths, before any check of their
// combinations: two lists of 65,536 ratios and loads per node took half a minute (2^32 checks of the run
// scale) to be refused.
TEST(CampaignFaults, MatrixPastTheLimitIsRefusedAtOnce) {
  std::string ratios, loads;
  for (int i = 1; i <= 65536; ++i) {
    ratios += (i > 1 ? ", " : "") + std::to_string(i);
    loads += (i > 1 ? ", " : "") + std::to_string(i);
  }
  const auto start = std::chrono::steady_clock::now();
  expect_refused(R"({"spec_version": 1, "strategies": ["makhoul"], "nodes": [4], "topologies": ["ring"],
                     "ratios": [)" + ratios + R"(], "load_per_node": [)" + loads + "]}",
                 "more than 100000 settings; expected at most that many in one spec", " --yes", "matrix");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(CampaignFaults, RefusesResultsOfAnotherSpecVersion) {
  const std::string spec = tmp("v2.json"), csv = tmp("v1.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << "{\"spec_version\": \"v1\", " + base("[1, 0.5]") + "}";
  ASSERT_EQ(hetlb(spec + " -j 2 --max-runs 2 --results " + csv), 0);
  const std::string before = slurp(csv);
  std::ofstream(spec) << "{\"spec_version\": \"v2\", " + kBase + "}";
  std::string err;
  EXPECT_EQ(hetlb(spec + " --results " + csv, &err), 1);
  EXPECT_EQ(count_lines(err), 1) << err;
  EXPECT_NE(err.find("written by spec version \"v1+time\"; expected \"v2+time\""), std::string::npos) << err;
  EXPECT_EQ(slurp(csv), before);
  // A results file without the key columns (another format): refused too.
  std::ofstream(csv) << "strategy,k,converged\nmakhoul,1,1\n";
  EXPECT_EQ(hetlb(spec + " --results " + csv, &err), 1);
  EXPECT_NE(err.find("no column \"spec_version\""), std::string::npos) << err;
  EXPECT_EQ(slurp(csv), "strategy,k,converged\nmakhoul,1,1\n");
}

TEST(CampaignFaults, TwoCampaignsOnOneResultsFileAreRefused) {
  const std::string spec = tmp("lock.json"), csv = tmp("lock.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << "{\"spec_version\": 1, " + kBase + "}";
  const int fd = open(csv.c_str(), O_RDWR | O_CREAT, 0644);  // another campaign holds the lock
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
  std::string err;
  EXPECT_EQ(hetlb(spec + " --results " + csv, &err), 1);
  EXPECT_NE(err.find("in use by another campaign"), std::string::npos) << err;
  EXPECT_EQ(slurp(csv), "");
  close(fd);
  EXPECT_EQ(hetlb(spec + " -j 2 --results " + csv), 0);  // the lock gone, it runs
  EXPECT_EQ(count_lines(slurp(csv)), 5);
}

// A campaign stopped (Ctrl-Z, SIGSTOP on its process group) longer than the timeout, then continued:
// its run in progress ends normally, not as a timeout (the stopped time does not count). The run is small
// (8 nodes, a streak of 200 iterations): sanitized beside other tests on 2 cores, a 16-node run to a
// streak of 2,000 outlasted the timeout on its own.
TEST(CampaignFaults, StoppedTimeDoesNotCountAgainstTheTimeout) {
  const std::string spec = tmp("stop.json"), csv = tmp("stop.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": 1, "strategies": ["makhoul"], "virtual_load": [false], "integer": [false],
    "platforms": ["cluster"], "nodes": [8], "topologies": ["ring"], "initial": ["single"], "ratios": [1],
    "iterations": 200, "timeout_seconds": 10})";
  const pid_t pid = start_campaign(spec, csv, "1", "", true);
  ASSERT_GE(pid, 0);
  // Stop the job as soon as its run has started (its process is there until the stopped campaign reaps it).
  const std::string children = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::string child;
  while ((child = slurp(children)).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_FALSE(child.empty());
  kill(-pid, SIGSTOP);
  const pid_t run = std::stoi(child);
  ASSERT_EQ(kill(run, 0), 0) << "the run ended before the stop";
  std::this_thread::sleep_for(std::chrono::seconds(12));  // longer than the timeout
  kill(-pid, SIGCONT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  const std::string rows = slurp(csv);
  EXPECT_EQ(count_lines(rows), 2) << rows;
  EXPECT_NE(rows.find(",ok,"), std::string::npos) << rows;
  EXPECT_EQ(rows.find("timeout"), std::string::npos) << rows;
}

// SIGKILL in the middle, then a restart: no row lost but those in progress, no cut or duplicate row.
TEST(CampaignFaults, KilledCampaignRestartsWithoutLosingOrCuttingRows) {
  const std::string spec = tmp("kill.json"), csv = tmp("kill.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << "{\"spec_version\": 1, " + base("[1, 0.5, 0.25]", "200") + "}";
  const pid_t pid = start_campaign(spec, csv, "2");
  ASSERT_GE(pid, 0);
  // Wait for two rows, then kill.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_lines(slurp(csv)) < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string after_kill = slurp(csv);
  ASSERT_GE(count_lines(after_kill), 3);
  ASSERT_EQ(after_kill.back(), '\n');
  // A row cut by a kill during its write (simulated): dropped at the restart.
  std::ofstream(csv, std::ios::app) << "1,convergence,makhoul,1,tr";
  std::string err;
  ASSERT_EQ(hetlb(spec + " -j 2 --results " + csv, &err), 0) << err;
  EXPECT_NE(err.find("dropped a cut last row"), std::string::npos) << err;
  const std::string text = slurp(csv);
  EXPECT_EQ(text.rfind(after_kill, 0), 0u);  // the rows before the kill, kept as they were
  std::istringstream in(text);
  std::set<std::string> keys;
  int n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 35) << line;  // 19 key + 16 metric columns + build
    if (n > 0) {
      EXPECT_TRUE(keys.insert(line.substr(0, line.find(",ok,"))).second) << line;
    }
  }
  EXPECT_EQ(n, 1 + 12);  // header + 2 strategies x 2 virtual x 3 ratios, each once
}

// The results file replaced under a running campaign (git checkout or stash, an editor's save) or
// removed: the campaign notices at its next row, reopens the path and writes back the rows the file
// lacks. Before, the rows went to the file only the campaign still held, and were lost with it.
TEST(CampaignFaults, ResultsFileReplacedOrRemovedWhileRunningLosesNoRow) {
  const std::string spec = tmp("replaced.json"), csv = tmp("replaced.csv"), err_path = tmp("replaced.err");
  std::ofstream(spec) << "{\"spec_version\": 1, " + base("[1, 0.5, 0.25]", "1000") + "}";
  for (const bool remove : {false, true}) {
    std::remove(csv.c_str());
    const pid_t pid = start_campaign(spec, csv, "1", err_path);
    ASSERT_GE(pid, 0);
    // Two rows written, then the campaign stopped while its file is replaced by an older copy (the
    // header and the first row) or removed.
    const std::string before = stop_after_two_rows(pid, csv);
    ASSERT_GE(count_lines(before), 3);
    ASSERT_LT(count_lines(before), 13) << "the campaign ended before its file was replaced";
    if (remove) {
      ASSERT_EQ(std::remove(csv.c_str()), 0);
    } else {
      const std::string older = tmp("replaced-older.csv");
      std::ofstream(older) << before.substr(0, before.find('\n', before.find('\n') + 1) + 1);
      ASSERT_EQ(std::rename(older.c_str(), csv.c_str()), 0);
    }
    kill(pid, SIGCONT);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << slurp(err_path);
    const std::string err = slurp(err_path);
    EXPECT_NE(err.find("was replaced or removed while the campaign ran"), std::string::npos) << err;
    std::istringstream in(slurp(csv));
    std::set<std::string> keys;
    int n = 0;
    for (std::string line; std::getline(in, line); ++n) {
      if (n > 0) {
        EXPECT_TRUE(keys.insert(line.substr(0, line.find(",ok,"))).second) << line;
      }
    }
    EXPECT_EQ(n, 1 + 12) << (remove ? "removed" : "replaced");  // header + every setting once
  }
}

}  // namespace

// The file that replaces the results cannot be used (another spec version's, or locked by another
// campaign): the campaign stops with one line naming where its rows went, and every row it had (those
// of the file replaced and the one in hand) is in that file, the new file untouched.
TEST(CampaignFaults, ResultsFileReplacedByAnUnusableFileSavesTheRowsBeside) {
  const std::string spec = tmp("unusable.json"), csv = tmp("unusable.csv"), err_path = tmp("unusable.err");
  std::ofstream(spec) << "{\"spec_version\": 1, " + base("[1, 0.5, 0.25]", "1000") + "}";
  for (const bool locked : {false, true}) {
    std::remove(csv.c_str());
    for (int n = 1; n < 4; ++n) std::remove((csv + ".saved-" + std::to_string(n) + ".csv").c_str());
    const pid_t pid = start_campaign(spec, csv, "1", err_path);
    ASSERT_GE(pid, 0);
    const std::string before = stop_after_two_rows(pid, csv);
    ASSERT_GE(count_lines(before), 3);
    ASSERT_LT(count_lines(before), 13) << "the campaign ended before its file was replaced";
    // The new file: another spec version's rows, or an empty file held by another campaign.
    const std::string header = before.substr(0, before.find('\n') + 1);
    const std::string row = before.substr(header.size(), before.find('\n', header.size()) + 1 - header.size());
    const std::string foreign = locked ? "" : header + "2" + row.substr(row.find(','));
    const std::string other = tmp("unusable-other.csv");
    std::ofstream(other) << foreign;
    const int fd = open(other.c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    if (locked) {
      ASSERT_EQ(flock(fd, LOCK_EX | LOCK_NB), 0);
    }
    ASSERT_EQ(std::rename(other.c_str(), csv.c_str()), 0);
    kill(pid, SIGCONT);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fd);
    const std::string err = slurp(err_path);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << err;
    // After the progress lines, one error line, the last.
    EXPECT_EQ(err.find("hetlb: error:"), err.rfind("hetlb: error:")) << err;
    EXPECT_EQ(err.find('\n', err.find("hetlb: error:")), err.size() - 1) << err;
    EXPECT_NE(err.find(locked ? "in use by another campaign" : "written by spec version \"2\""), std::string::npos)
        << err;
    const std::string saved = csv + ".saved-1.csv";
    EXPECT_NE(err.find("rows are saved in \"" + saved + "\""), std::string::npos) << err;
    EXPECT_EQ(slurp(csv), foreign);
    // Every row of the file replaced is saved, and one more: the run that ended after the replacement.
    const std::string kept = slurp(saved);
    EXPECT_EQ(kept.substr(0, header.size()), header);
    EXPECT_EQ(count_lines(kept), count_lines(before) + 1) << kept;
    std::istringstream in(before);
    for (std::string line; std::getline(in, line);) {
      EXPECT_NE(kept.find(line + "\n"), std::string::npos) << line;
    }
    // Moved back in place, it resumes: every setting once.
    ASSERT_EQ(std::rename(saved.c_str(), csv.c_str()), 0);
    EXPECT_EQ(hetlb(spec + " -j 2 --results " + csv), 0);
    EXPECT_EQ(count_lines(slurp(csv)), 1 + 12);
  }
}

// A strategy plug-in is part of the build (its rows' build is hetlb's + "+plugin-<hash of the library>"):
// a library replaced while the campaign runs (rebuilt, copied over) would give rows of two builds in one
// file. The campaign stops in one line naming the library, before the next run or at the row of a run that
// loaded the new one; the file holds rows of the library it started with only. Put back, it resumes.
TEST(CampaignFaults, PluginReplacedWhileRunningIsRefused) {
  const std::string spec = tmp("plugin-replaced.json"), csv = tmp("plugin-replaced.csv");
  const std::string err_path = tmp("plugin-replaced.err"), lib = tmp("plugin-replaced.so");
  const std::string original = tmp("plugin-replaced-original.so"), rebuilt = tmp("plugin-replaced-rebuilt.so");
  std::remove(csv.c_str());
  std::filesystem::copy_file(std::string(HETLB_BINARY_DIR) + "/plugins/libfirst_order.so", original,
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(original, lib, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(original, rebuilt, std::filesystem::copy_options::overwrite_existing);
  std::ofstream(rebuilt, std::ios::app) << "rebuilt";  // loads as before, another identity
  std::ofstream(spec) << R"({"spec_version": 1, "strategies": ["plugin:)" << lib << R"("], "virtual_load": [false, true],
    "integer": [false], "platforms": ["cluster"], "nodes": [8], "topologies": ["ring"], "initial": ["single"],
    "ratios": [1, 0.5, 0.25], "iterations": 1000})";
  const pid_t pid = start_campaign(spec, csv, "1", err_path);
  ASSERT_GE(pid, 0);
  const std::string before = stop_after_two_rows(pid, csv);
  ASSERT_GE(count_lines(before), 3);
  ASSERT_LT(count_lines(before), 7) << "the campaign ended before its plug-in was replaced";
  std::filesystem::copy_file(rebuilt, lib + ".new", std::filesystem::copy_options::overwrite_existing);
  ASSERT_EQ(std::rename((lib + ".new").c_str(), lib.c_str()), 0);
  kill(pid, SIGCONT);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string err = slurp(err_path);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << err;
  // After the progress lines, one error line, the last, naming the library.
  EXPECT_EQ(err.find("hetlb: error:"), err.rfind("hetlb: error:")) << err;
  EXPECT_EQ(err.find('\n', err.find("hetlb: error:")), err.size() - 1) << err;
  EXPECT_NE(err.find("hetlb: error: strategy plug-in " + lib + ": replaced while the campaign ran"), std::string::npos)
      << err;
  // Every row is of one build: the one the campaign started with.
  const auto builds = [&] {
    std::set<std::string> seen;
    std::istringstream in(slurp(csv));
    std::string line;
    std::getline(in, line);
    static const std::regex build(",([0-9a-z]+(-dirty)?\\+plugin-[0-9a-f]{16}),");
    std::smatch m;
    while (std::getline(in, line)) seen.insert(std::regex_search(line, m, build) ? m[1].str() : "none: " + line);
    return seen;
  };
  EXPECT_EQ(builds().size(), 1u) << slurp(csv);
  EXPECT_EQ(slurp(csv).rfind(before, 0), 0u);  // the rows before, kept as they were
  // The library the campaign started with put back: the campaign goes on to its end, one build.
  ASSERT_EQ(std::rename(original.c_str(), lib.c_str()), 0);
  std::string resumed;
  EXPECT_EQ(hetlb(spec + " --results " + csv, &resumed), 0) << resumed;
  EXPECT_EQ(count_lines(slurp(csv)), 1 + 6);
  EXPECT_EQ(builds().size(), 1u) << slurp(csv);
}
