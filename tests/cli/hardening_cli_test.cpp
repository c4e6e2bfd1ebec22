// The command line against hostile and careless input (issue 31): deep JSON, files that are not
// files, full devices, names that look like gnuplot commands or CSV syntax, duplicate keys, loads past
// the largest double, empty names. Each refusal is one "hetlb: error:" line, a non-zero exit, and no
// output file left behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace hetlb::testing {

namespace fs = std::filesystem;

struct ShellResult {
  int exit_code = -1;
  std::string err;
  int err_lines() const {
    int n = 0;
    for (char c : err) n += c == '\n';
    return n;
  }
};

class HardeningCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = scratch_dir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    bin = std::string(HETLB_BINARY_DIR) + "/bin/hetlb";
    example = std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json";
  }
  void TearDown() override { fs::remove_all(dir); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    inputs.push_back(name);
  }

  // `hetlb ARGS REDIRECTIONS` in the scratch folder under a 20 s timeout (a FIFO must not block);
  // stderr to err.txt.
  ShellResult shell(const std::string& args, const std::string& redirect = "> out.txt") {
    const std::string cmd =
        "cd '" + dir.string() + "' && timeout 20 '" + bin + "' " + args + " " + redirect + " 2> err.txt";
    const int status = std::system(cmd.c_str());
    ShellResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(dir / "err.txt");
    return r;
  }

  // One error line naming `fragment`, a non-zero exit that is not the timeout's (124), and no file in
  // the folder but the inputs (written by write(), or `keep`) and the captures.
  void expect_refused(const std::string& args, const std::string& fragment, const std::vector<std::string>& keep = {},
                      const std::string& redirect = "> out.txt") {
    const ShellResult r = shell(args, redirect);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.exit_code, 124) << args << ": timed out";
    EXPECT_EQ(r.err_lines(), 1) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("hetlb: error: ", 0), 0u) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << args << "\n" << r.err;
    EXPECT_LT(r.err.size(), 600u) << args << ": a long line";
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string n = e.path().filename().string();
      bool kept = n == "out.txt" || n == "err.txt";
      for (const auto& k : keep) kept = kept || n == k;
      for (const auto& k : inputs) kept = kept || n == k;
      EXPECT_TRUE(kept) << args << ": left behind: " << n;
    }
  }

  static bool has_gnuplot() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

  fs::path dir;
  std::string bin, example;
  std::vector<std::string> inputs;
};

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// Item 1: one depth guard in the JSON reader; the value is never printed whole.
TEST_F(HardeningCli, JsonNestedTooDeepIsRefusedInOneShortLine) {
  write("deep-ring.json", "{\"loads\":" + nested(100000) + ",\"targets\":[0,1],\"succ_cost\":1}");
  expect_refused("ring deep-ring.json", "deep-ring.json: JSON nested deeper than 64 levels");
  write("deep-platform.json", "{\"items\":" + nested(50000) + ",\"processors\":[]}");
  expect_refused("scatter deep-platform.json", "JSON nested deeper than 64 levels");
  expect_refused("compare deep-platform.json", "JSON nested deeper");
  expect_refused("simgrid-platform deep-platform.json", "JSON nested deeper");
  expect_refused("simulate scatter deep-platform.json", "JSON nested deeper");
  expect_refused("simulate ring deep-ring.json", "JSON nested deeper");
  write("ring.json", R"({"loads":[3,1],"targets":[2,2],"succ_cost":1})");
  expect_refused("ring ring.json --schedule deep-ring.json", "JSON nested deeper");
  write("deep-spec.json", "{\"spec_version\":" + nested(100000) + "}");
  expect_refused("campaign deep-spec.json", "JSON nested deeper");
  // Within the limit, a wrong value is quoted as a short excerpt, not whole.
  write("wide.json", "{\"loads\":[" + std::string(60, '[') + std::string(60, ']') + "],\"targets\":[0],\"succ_cost\":1}");
  const ShellResult r = shell("ring wide.json");
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find("..."), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 300u) << r.err;
}

// Item 3: inputs and outputs are regular files; a FIFO or a device is refused at once.
TEST_F(HardeningCli, FifosAndDevicesAreRefusedAsInputsAndOutputs) {
  ASSERT_EQ(::mkfifo((dir / "ff").c_str(), 0600), 0);
  const std::vector<std::string> keep{"ff"};
  expect_refused("scatter ff", "ff: cannot read the platform file: is not a regular file", keep);
  expect_refused("ring ff", "is not a regular file", keep);
  expect_refused("scatter /dev/zero", "is not a regular file", keep);
  expect_refused("simgrid-platform '" + example + "' -o ff", "is not a regular file", keep);
  expect_refused("simgrid-platform '" + example + "' -o /dev/zero", "is not a regular file", keep);
  write("spec.json", R"({"spec_version": 1, "strategies": ["makhoul"], "virtual_load": [false], "integer": [false],
    "platforms": ["cluster"], "nodes": [4], "topologies": ["line"], "initial": ["single"], "ratios": [1]})");
  const std::vector<std::string> keep_spec{"ff", "spec.json"};
  expect_refused("campaign spec.json --results /dev/zero", "results \"/dev/zero\": is not a regular file", keep_spec);
  expect_refused("campaign spec.json --results ff", "is not a regular file", keep_spec);
  // The user's own pipe is still read and written: standard input and output.
  const ShellResult piped = shell("scatter /dev/stdin --format csv < '" + example + "'", "| head -1 > out.txt");
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(slurp(dir / "out.txt"), "name,items,comm_start,comm_end,finish,idle\n");
  const ShellResult substituted =
      shell("scatter /dev/fd/3 --format csv 3< '" + example + "'", "| head -1 > out.txt");  // as <(...) gives
  EXPECT_EQ(substituted.exit_code, 0) << substituted.err;
  EXPECT_EQ(slurp(dir / "out.txt"), "name,items,comm_start,comm_end,finish,idle\n");
}

// Item 4: simgrid-platform --nodes has the other commands' limit.
TEST_F(HardeningCli, SimgridPlatformNodeCountIsBounded) {
  expect_refused("simgrid-platform --study cluster --nodes 100000000 -o x.xml", "--nodes");
  expect_refused("simgrid-platform --study cluster --nodes 1048577 -o x.xml", "1048576");
  const ShellResult r = shell("simgrid-platform --study cluster --nodes 1048576 -o x.xml");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(fs::file_size(dir / "x.xml"), 1000u);
}

// Item 7: no user string reaches gnuplot as a command, whatever it holds.
TEST_F(HardeningCli, GnuplotNeverRunsAUserString) {
  if (!has_gnuplot()) GTEST_SKIP() << "gnuplot is not installed";
  // The issue's exploit: a newline in the file name, then a shell escape.
  const ShellResult r = shell("scatter '" + example + "' --gantt 'x\n!touch GNUPWN\n.png'");
  EXPECT_FALSE(fs::exists(dir / "GNUPWN")) << "gnuplot ran a line of the file name";
  (void)r;
  const std::vector<std::string> names = {"q'uote",     "d\\\"quote", "back\\\\slash", "bang!touch PWN1",
                                          "`touch PWN2`", "system(\\\"touch PWN3\\\")", "@mac", "semi;colon"};
  std::string processors;
  for (std::size_t i = 0; i < names.size(); ++i)
    processors += (i ? "," : "") + std::string("{\"name\":\"") + names[i] +
                  "\",\"compute\":{\"per_item\":1},\"comm\":{\"per_item\":0.5}}";
  write("names.json", "{\"name\":\"`touch PWN4`'!touch PWN5\",\"items\":100,\"root\":\"semi;colon\",\"processors\":[" +
                          processors + "]}");
  for (const std::string& figure :
       std::vector<std::string>{"'a`touch PWN6`.svg'", "\"b'\\\";!touch PWN7;'.svg\"", "'c\n!touch PWN8\n.svg'"}) {
    const ShellResult g = shell("scatter names.json --gantt " + figure);
    EXPECT_EQ(g.exit_code, 0) << figure << ": " << g.err;
  }
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().rfind("PWN", 0), std::string::npos) << "created: " << e.path();
  EXPECT_TRUE(fs::exists(dir / "a`touch PWN6`.svg"));
  EXPECT_TRUE(fs::exists(dir / "c\n!touch PWN8\n.svg"));
}

// Item 8: standard output that cannot be written is an error, not a silent exit 0.
TEST_F(HardeningCli, StandardOutputThatCannotBeWrittenFailsInOneLine) {
  write("ring.json", R"({"loads":[3,1],"targets":[2,2],"succ_cost":1})");
  for (const std::string& args : std::vector<std::string>{
           "scatter '" + example + "'", "ring ring.json", "simulate ring ring.json",
           "simgrid-platform '" + example + "'", "diffusion-platform cluster --nodes 4"}) {
    expect_refused(args, "standard output: cannot write (No space left on device)", {}, "> /dev/full");
    expect_refused(args, "standard output: cannot write (Bad file descriptor)", {}, ">&-");
  }
  // compare reports its progress on stderr: the error is its last line.
  const ShellResult r = shell("compare '" + example + "'", "> /dev/full");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.err.ends_with("\nhetlb: error: standard output: cannot write (No space left on device)\n")) << r.err;
}

// Item 9: the outputs of one command appear together or not at all.
TEST_F(HardeningCli, NoOutputFileIsLeftWhenALaterOneFails) {
  expect_refused("simgrid-platform '" + example + "' -o a.xml --hostfile /proc/x.hosts", "/proc/x.hosts");
  expect_refused("simgrid-platform --study cluster --nodes 4 -o a.xml --hostfile /proc/x.hosts", "/proc/x.hosts");
  expect_refused("diffusion-platform cluster --nodes 4 -o a.xml --hostfile /proc/x.hosts", "/proc/x.hosts");
}

// An output never replaces an input of its command nor another of its outputs, whatever the spelling
// (./, a link, a hard link): one line naming the option and the file, and the files as they were.
TEST_F(HardeningCli, AnOutputNeverReplacesAnInputOrAnotherOutput) {
  write("g.json", slurp(example));
  write("X", "precious\n");
  write("edges.txt", "0 1\n1 0\n1 2\n2 1\n2 3\n3 2\n3 0\n0 3\n");
  fs::create_symlink("g.json", dir / "link.json");
  fs::create_hard_link(dir / "g.json", dir / "hard.json");
  const std::vector<std::string> links = {"link.json", "hard.json"};
  expect_refused("simgrid-platform g.json -o X --hostfile X", "--hostfile \"X\": is also the output of --output \"X\"",
                 links);
  expect_refused("diffusion-platform cluster --nodes 4 -o X --hostfile ./X", "--hostfile \"./X\": is also the output of",
                 links);
  for (const std::string out : {"g.json", "./g.json", "link.json", "hard.json"})
    expect_refused("simgrid-platform g.json -o " + out, "--output \"" + out + "\": is an input of this command", links);
  expect_refused("simulate diffusion --nodes 4 --topology edges.txt --iterations 5 --trace edges.txt",
                 "--trace \"edges.txt\": is an input of this command", links);
  EXPECT_EQ(slurp(dir / "X"), "precious\n");
  EXPECT_EQ(slurp(dir / "g.json"), slurp(example));
  EXPECT_EQ(slurp(dir / "edges.txt"), "0 1\n1 0\n1 2\n2 1\n2 3\n3 2\n3 0\n0 3\n");
}

// Splits one CSV record (RFC 4180).
std::vector<std::string> csv_record(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') cells.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

// Item 10: a name holding CSV syntax stays one cell.
TEST_F(HardeningCli, CsvCellsAreQuoted) {
  write("names.json", R"({"items": 100, "root": "r", "processors": [
    {"name": "b,c", "compute": {"per_item": 1}, "comm": {"per_item": 0.5}},
    {"name": "x\"y", "compute": {"per_item": 1}, "comm": {"per_item": 0.5}},
    {"name": "r", "compute": {"per_item": 1}, "comm": {"per_item": 0}}]})");
  const ShellResult r = shell("scatter names.json --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream out(slurp(dir / "out.txt"));
  std::vector<std::string> names;
  for (std::string line; std::getline(out, line);) {
    const auto cells = csv_record(line);
    EXPECT_EQ(cells.size(), 6u) << line;
    names.push_back(cells[0]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"name", "b,c", "x\"y", "r"}));
  const ShellResult c = shell("compare names.json --format csv");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::istringstream rows(slurp(dir / "out.txt"));
  for (std::string line; std::getline(rows, line);) EXPECT_EQ(csv_record(line).size(), 9u) << line;
}

// Item 11: a key given twice is refused, naming the file and the key.
TEST_F(HardeningCli, DuplicateJsonKeysAreRefused) {
  write("platform.json", R"({"items": 1000, "items": 5, "processors": [{"name": "a", "compute": {"per_item": 1}}]})");
  expect_refused("scatter platform.json", "platform.json: duplicate key \"items\"");
  write("ring.json", R"({"loads": [3, 1], "targets": [2, 2], "succ_cost": 1, "succ_cost": 2})");
  expect_refused("ring ring.json", "ring.json: duplicate key \"succ_cost\"");
  write("spec.json", R"({"spec_version": 1, "nodes": [4], "nodes": [8]})");
  expect_refused("campaign spec.json", "spec.json\": duplicate key \"nodes\"");
  // Inner objects too, and the same key in two objects is no duplicate.
  write("inner.json", R"({"items": 10, "processors": [{"name": "a", "compute": {"per_item": 1, "per_item": 2}},
    {"name": "b", "compute": {"per_item": 1}}]})");
  expect_refused("scatter inner.json", "duplicate key \"per_item\"");
}

// Item 12: a campaign spec that no integer run can use is refused before any run.
TEST_F(HardeningCli, CampaignSpecTypeAndRangeErrorsAreRefusedUpFront) {
  write("half.json", R"({"spec_version": 1, "integer": [true], "load_per_node": 0.5, "strategies": ["makhoul"],
    "virtual_load": [false], "platforms": ["cluster"], "nodes": [4], "topologies": ["line"], "initial": ["single"],
    "ratios": [1]})");
  expect_refused("campaign half.json", "\"load_per_node\" = 0.5; expected whole loads when \"integer\"");
  write("type.json", R"({"spec_version": 1, "integer": [1]})");
  expect_refused("campaign type.json", "\"integer\" = [1]");
}

// Item 13: loads past the largest double are named with their file; a tiny positive load is a load.
TEST_F(HardeningCli, LoadOverflowIsNamedWithItsFile) {
  write("big.loads", "1e308 1e308\n");
  expect_refused("simulate diffusion --initial big.loads", "big.loads: the loads add up past the largest double");
  write("huge.loads", "1e999 1\n");
  expect_refused("simulate diffusion --initial huge.loads", "huge.loads:1: load \"1e999\" is beyond the largest double");
  expect_refused("simulate diffusion --load-per-node 1e308", "load per node 1e+308 x 16 nodes");
  write("tiny.loads", "1e-320 1000\n");
  const ShellResult tiny = shell("simulate diffusion --initial tiny.loads --topology line --strategy none --iterations 1 --format json");
  EXPECT_EQ(tiny.err.find("expected a non-negative number"), std::string::npos) << tiny.err;
  EXPECT_EQ(tiny.exit_code, 0) << tiny.err;
}

// Item 14: empty names and non-finite numbers are refused, naming the option.
TEST_F(HardeningCli, EmptyNamesAndNonFiniteOptionsAreRefused) {
  expect_refused("scatter '" + example + "' --order ''", "--order");
  expect_refused("scatter '" + example + "' --root ''", "--root");
  expect_refused("compare '" + example + "' --root ''", "--root");
  expect_refused("simulate diffusion --k inf", "--k inf: expected a finite k >= 1");
  const ShellResult launcher = shell("calibrate -n 2 --mpirun 'no-such-launcher --allow-run-as-root'");
  EXPECT_NE(launcher.exit_code, 0);
  EXPECT_EQ(launcher.err_lines(), 1) << launcher.err;
  EXPECT_NE(launcher.err.find("cannot start no-such-launcher (No such file or directory)"), std::string::npos)
      << launcher.err;
  EXPECT_EQ(launcher.err.find("openmpi-bin"), std::string::npos) << launcher.err;
  if (has_gnuplot() && ::geteuid() == 0) {  // root may write in /proc's folder, so only drawing fails
    const ShellResult g = shell("scatter '" + example + "' --gantt /proc/x.png");
    EXPECT_NE(g.exit_code, 0);
    EXPECT_EQ(g.err_lines(), 1) << g.err;
    EXPECT_EQ(g.err.find("sh:"), std::string::npos) << g.err;
  }
}

}  // namespace hetlb::testing
