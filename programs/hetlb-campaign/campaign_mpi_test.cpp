// hetlb-campaign under mpirun on 4 ranks gives the rows of `hetlb campaign -j 2` on the same spec
// (every column but the wall time), in two pieces (resumed); a bad spec stops every rank in one line.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <stdlib.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kBin = std::string(HETLB_BINARY_DIR) + "/bin/";
const std::string kMpirun = std::string(HETLB_MPIEXEC) + " --allow-run-as-root --oversubscribe -np 4 ";

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/campaign_mpi_" + name; }

// In sanitizer builds: Open MPI keeps runtime allocations past MPI_Finalize (as for every MPI test).
const bool kNoLeakCheck = setenv("ASAN_OPTIONS", "detect_leaks=0", 1) == 0;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int run(const std::string& command, std::string* err = nullptr) {
  // One stderr file per test process: ctest -j runs these tests side by side.
  const std::string path = tmp("stderr-" + std::to_string(getpid()) + ".txt");
  const int st = std::system((command + " >/dev/null 2>" + path).c_str());
  if (err) *err = slurp(path);
  std::remove(path.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// The rows are the simulator's: hetlb-campaign running another build's hetlb (--hetlb) takes that
// build's rows (it resumes its own file), and records that build on failed rows too.
TEST(CampaignMpi, TheSimulatorsBuildIsTheFiles) {
  const std::string spec = tmp("simulator-build.json"), csv = tmp("simulator-build.csv");
  const std::string wrapper = tmp("simulator-build.sh");
  std::remove(csv.c_str());
  // Another build of hetlb: its --version and the build id of its JSON say commit abcabc...
  std::ofstream(wrapper) << "#!/bin/sh\n"
                            "if [ \"$1\" = --version ]; then\n"
                            "  echo 'hetlb 0.1.0 (commit abcabcabcabcabcabcabcabcabcabcabcabcabca, uncommitted changes)'\n"
                            "  echo 'built with SimGrid 3.32, Open MPI 4.1.4, GLPK 5.0'; exit 0\n"
                            "fi\n"
                            "case \" $* \" in *' --seed 2 '*) echo 'hetlb: error: seed 2 fails' >&2; exit 1;; esac\n"
                         << kBin << "hetlb \"$@\" | sed 's/\"id\": *\"[^\"]*\"/\"id\": \"abcabcabcabc-dirty\"/'\n";
  std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
  const auto write_spec = [&](const std::string& seeds) {
    std::ofstream(spec) << R"({"spec_version": "b2", "strategies": ["makhoul"], "virtual_load": false,
      "integer": false, "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"], "initial": ["random"],
      "seeds": )" << seeds << R"(, "iterations": 20, "ratios": [1], "results": ")"
                        << csv << "\"}";
  };
  const auto rows_of_that_build = [&] {
    std::istringstream in(slurp(csv));
    int n = 0;
    for (std::string line; std::getline(in, line);) n += line.ends_with(",abcabcabcabc-dirty");
    return n;
  };
  const std::string mpirun = std::string(HETLB_MPIEXEC) + " --allow-run-as-root --oversubscribe -np 3 ";
  write_spec("[1, 2, 3]");
  std::string err;
  ASSERT_EQ(run(mpirun + kBin + "hetlb-campaign " + spec + " --hetlb " + wrapper + " --max-runs 1", &err), 0) << err;
  EXPECT_EQ(rows_of_that_build(), 1) << slurp(csv);
  EXPECT_NE(run(mpirun + kBin + "hetlb-campaign " + spec + " --hetlb " + wrapper, &err), 0);  // seed 2 fails
  EXPECT_EQ(err.find("rows of another build"), std::string::npos) << err;
  EXPECT_EQ(rows_of_that_build(), 3) << slurp(csv);  // the failed run's row too
  // This build's simulator: the file is another build's, refused.
  write_spec("[1, 2, 3, 4]");
  EXPECT_NE(run(mpirun + kBin + "hetlb-campaign " + spec, &err), 0);
  EXPECT_NE(err.find("rows of another build, abcabcabcabc-dirty (3 rows)"), std::string::npos) << err;
}

// A plug-in replaced while hetlb-campaign runs (its one worker's simulator, a wrapper, replaces the
// library after its first run, or before it): the campaign stops every rank in one line naming the
// library, before the next run or at the row of the run that loaded the new one; no row of the new
// library is written.
TEST(CampaignMpi, PluginReplacedWhileRunningStopsEveryRank) {
  const std::string spec = tmp("plugin-replaced.json"), csv = tmp("plugin-replaced.csv");
  const std::string lib = tmp("plugin-replaced.so"), mark = tmp("plugin-replaced.mark");
  const std::string wrapper = tmp("plugin-replaced.sh");
  std::ofstream(spec) << R"({"spec_version": "p1", "strategies": ["plugin:)" << lib << R"("], "virtual_load": false,
    "integer": false, "platforms": ["cluster"], "nodes": [4], "topologies": ["ring"], "initial": ["random"],
    "seeds": [1, 2, 3], "iterations": 20, "ratios": [1], "results": ")" << csv << "\"}";
  for (const bool before_its_run : {false, true}) {
    std::remove(csv.c_str());
    std::remove(mark.c_str());
    std::filesystem::copy_file(std::string(HETLB_BINARY_DIR) + "/plugins/libfirst_order.so", lib,
                               std::filesystem::copy_options::overwrite_existing);
    // The first run (not --version) changes the library once, before or after the simulator loads it.
    const std::string change = "[ -e " + mark + " ] || { touch " + mark + "; printf rebuilt >> " + lib + "; }\n";
    std::ofstream(wrapper) << "#!/bin/sh\n"
                           << "[ \"$1\" = --version ] && exec " << kBin << "hetlb \"$@\"\n"
                           << (before_its_run ? change : "") << kBin << "hetlb \"$@\"\nst=$?\n"
                           << (before_its_run ? "" : change) << "exit $st\n";
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    std::string err;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run(std::string(HETLB_MPIEXEC) + " --allow-run-as-root --oversubscribe -np 2 " + kBin +
                      "hetlb-campaign " + spec + " --hetlb " + wrapper,
                  &err),
              1)
        << err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
    EXPECT_NE(err.find("hetlb-campaign: error: strategy plug-in " + lib + ": replaced while the campaign ran ("),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("error:"), err.rfind("error:")) << err;
    // The row of the first run: written when it loaded the library the campaign started with.
    int rows = 0;
    std::istringstream in(slurp(csv));
    for (std::string line; std::getline(in, line);) rows += line.find(",ok,") != std::string::npos;
    EXPECT_EQ(rows, before_its_run ? 0 : 1) << slurp(csv);
  }
}

// Rows of a results file without the wall_seconds column, sorted.
std::vector<std::string> rows_without_wall_time(const std::string& path) {
  std::istringstream in(slurp(path));
  std::vector<std::string> rows;
  std::size_t wall = 0;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
      cells.push_back(line.substr(start, comma - start));
    cells.push_back(line.substr(start));
    if (rows.empty() && wall == 0) {
      wall = static_cast<std::size_t>(std::find(cells.begin(), cells.end(), "wall_seconds") - cells.begin());
      EXPECT_LT(wall, cells.size());
    }
    if (wall < cells.size()) cells.erase(cells.begin() + static_cast<long>(wall));
    std::string row;
    for (const auto& c : cells) row += c + ",";
    rows.push_back(row);
  }
  std::sort(rows.begin() + (rows.empty() ? 0 : 1), rows.end());
  return rows;
}

TEST(CampaignMpi, FourRanksGiveTheRowsOfTwoLocalJobs) {
  ASSERT_TRUE(kNoLeakCheck);
  const std::string spec = tmp("spec.json"), local = tmp("local.csv"), mpi = tmp("mpi.csv");
  std::remove(local.c_str());
  std::remove(mpi.c_str());
  std::ofstream(spec) << R"({"spec_version": "m1", "strategies": ["besteffort:1", "besteffort:2", "makhoul"],
    "virtual_load": [false, true], "integer": [false], "platforms": ["cluster"], "nodes": [8, 16],
    "topologies": ["ring"], "initial": ["random"], "seeds": [1, 2], "ratios": [1], "iterations": 20})";
  ASSERT_EQ(run(kBin + "hetlb campaign " + spec + " -j 2 --results " + local), 0);
  std::string err;
  ASSERT_EQ(run(kMpirun + kBin + "hetlb-campaign " + spec + " --results " + mpi + " --max-runs 5", &err), 0) << err;
  EXPECT_NE(err.find("on 3 worker ranks"), std::string::npos) << err;
  EXPECT_EQ(rows_without_wall_time(mpi).size(), 1u + 5u);  // a piece of 5 runs
  ASSERT_EQ(run(kMpirun + kBin + "hetlb-campaign " + spec + " --results " + mpi, &err), 0) << err;
  EXPECT_NE(err.find("5 done"), std::string::npos) << err;  // resumed
  const auto a = rows_without_wall_time(local), b = rows_without_wall_time(mpi);
  EXPECT_EQ(a.size(), 1u + 24u);
  EXPECT_EQ(a, b);
  // Longest runs first: the 16-node settings are handed out before the 8-node ones.
  std::istringstream in(slurp(mpi));
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  EXPECT_NE(first.find(",16,ring,"), std::string::npos) << first;
}

TEST(CampaignMpi, BadSpecStopsEveryRankInOneLine) {
  const std::string spec = tmp("bad.json"), csv = tmp("bad.csv");
  std::ofstream(csv) << "precious\n";
  std::ofstream(spec) << R"({"spec_version": 1, "nodes": [16], "colour": "blue"})";
  std::string err;
  EXPECT_NE(run(kMpirun + kBin + "hetlb-campaign " + spec + " --results " + csv, &err), 0);
  EXPECT_NE(err.find("hetlb-campaign: error: campaign \"" + spec + "\": unknown key \"colour\""), std::string::npos)
      << err;
  EXPECT_EQ(slurp(csv), "precious\n");
}

// A bad option is read on every rank before MPI starts: one error line (the first rank's), exit 2.
// Before, every rank's CLI11 message came with "Run with --help", under mpirun's exit code 105.
TEST(CampaignMpi, BadOptionIsOneLine) {
  std::string err;
  const int status = run(kMpirun + kBin + "hetlb-campaign " + tmp("none.json") + " --timeout -1", &err);
  EXPECT_NE(status, 0);
  const std::string line = "hetlb-campaign: error: --timeout: value -1: expected a non-negative number";
  EXPECT_NE(err.find(line), std::string::npos) << err;
  EXPECT_EQ(err.find(line), err.rfind("hetlb-campaign: error:")) << "more than one error line:\n" << err;
  EXPECT_EQ(err.find("Run with --help"), std::string::npos) << err;
}

// The process of `rank` running hetlb-campaign on `spec` (by its command line and environment).
pid_t rank_process(const std::string& spec, int rank) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = slurp(entry.path() / "cmdline"), environ = slurp(entry.path() / "environ");
    for (char& c : cmdline)
      if (c == '\0') c = ' ';
    if (cmdline.find("hetlb-campaign " + spec) == std::string::npos) continue;
    if (environ.find(std::string("OMPI_COMM_WORLD_RANK=") + std::to_string(rank) + '\0') != std::string::npos)
      return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

// A worker rank killed under mpirun --enable-recovery: the others finish the queue, only its run in
// progress is missing, and the same command completes the file.
TEST(CampaignMpi, DeadRankLosesOnlyItsRunInProgress) {
  const std::string spec = tmp("death.json"), csv = tmp("death.csv");
  std::remove(csv.c_str());
  std::ofstream(spec) << R"({"spec_version": "d1", "strategies": ["besteffort:1", "makhoul"],
    "virtual_load": [false, true], "integer": [false], "platforms": ["cluster"], "nodes": [16],
    "topologies": ["ring"], "initial": ["random"], "seeds": [1, 2, 3], "ratios": [1], "iterations": 200})";
  const std::string mpirun = std::string(HETLB_MPIEXEC) + " --allow-run-as-root --oversubscribe --enable-recovery -np 4 " +
                             kBin + "hetlb-campaign " + spec + " --results " + csv + " --heartbeat 1";  // a live rank under a sanitizer on a loaded machine may pause a second
  const pid_t job = fork();
  ASSERT_GE(job, 0);
  if (job == 0) {
    execl("/bin/sh", "sh", "-c", (mpirun + " >/dev/null 2>" + tmp("death.err")).c_str(), nullptr);
    _exit(127);
  }
  pid_t victim = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::string text = slurp(csv);
    if (std::count(text.begin(), text.end(), '\n') >= 2 && (victim = rank_process(spec, 2)) > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_GT(victim, 0);
  kill(victim, SIGKILL);
  int status = 0;
  waitpid(job, &status, 0);
  const std::string err = slurp(tmp("death.err"));
  EXPECT_TRUE(WIFEXITED(status)) << status;  // the job ended (its exit status is mpirun's choice under recovery)
  EXPECT_NE(err.find("rank 2 silent"), std::string::npos) << err;
  EXPECT_NE(err.find("1 worker ranks lost with their runs in progress"), std::string::npos) << err;
  const auto after = rows_without_wall_time(csv);
  EXPECT_GE(after.size(), 1u + 12u - 1u);  // at most the dead rank's run in progress is missing
  EXPECT_LT(after.size(), 1u + 12u + 1u);
  ASSERT_EQ(run(kMpirun + kBin + "hetlb-campaign " + spec + " --results " + csv), 0);
  EXPECT_EQ(rows_without_wall_time(csv).size(), 1u + 12u);
}

}  // namespace
