// Reading a campaign's results: a file saved with DOS line ends reads as written; a cell changed by hand
// into something the campaign never writes is refused with the line and the column, not read as another
// value.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "hetlb/error.hpp"
#include "results_file.hpp"

namespace hetlb::campaign {

namespace {
// A file with one row whose cells are `value` except those named in `set`.
std::string file(const std::map<std::string, std::string>& set, const std::string& eol = "\n") {
  std::string header, row;
  for (const auto* columns : {&kKeyColumns, &kMetricColumns})
    for (const std::string& c : *columns) {
      header += (header.empty() ? "" : ",") + c;
      std::string cell = c == "spec_version" ? "v1" : c == "status" ? "ok" : c == "converged" ? "1" : c == "error" || c == "build" ? "" : "2";
      if (set.count(c)) cell = set.at(c);
      row += (row.empty() ? "" : ",") + cell;
    }
  return header + eol + row + eol;
}

std::string refusal(const std::string& text) {
  try {
    parse_results("r.csv", text, "v1");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ResultsFile, DosLineEndsReadAsWritten) {
  const auto unix_rows = parse_results("r.csv", file({}), "v1");
  const auto dos_rows = parse_results("r.csv", file({}, "\r\n"), "v1");
  ASSERT_EQ(unix_rows.size(), 1u);
  ASSERT_EQ(dos_rows.size(), 1u);
  EXPECT_EQ(unix_rows.begin()->second.cells, dos_rows.begin()->second.cells);
  EXPECT_EQ(dos_rows.begin()->second.at("build"), "");
}

TEST(ResultsFile, CellsTheCampaignNeverWritesAreRefused) {
  EXPECT_EQ(refusal(file({{"converged", "yes"}})),
            "results \"r.csv\": line 2, column \"converged\": 'yes'; expected 0, 1 or empty (a row changed by hand: "
            "use another results file)");
  EXPECT_NE(refusal(file({{"converged_nodes", "-4"}})).find("column \"converged_nodes\": '-4'; expected a whole number"),
            std::string::npos);
  EXPECT_NE(refusal(file({{"status", std::string("ok\0", 3)}})).find("column \"status\": 'ok\\x00'"), std::string::npos);
  EXPECT_NE(refusal(file({{"status", "OK"}})).find("expected ok, timeout or failed"), std::string::npos);
  EXPECT_NE(refusal(file({{"avg_idle_time", "fast"}})).find("column \"avg_idle_time\": 'fast'; expected a number or empty"),
            std::string::npos);
  EXPECT_NE(refusal(file({{"wall_seconds", "1e999"}})).find("expected a number"), std::string::npos);
  // What the campaign writes reads back: empty metrics of a failed run, a timeout, numbers in any notation.
  EXPECT_EQ(refusal(file({{"status", "failed"}, {"converged", ""}, {"converged_nodes", ""}, {"avg_idle_time", ""},
                          {"error", "exit status 1"}})),
            "");
  EXPECT_EQ(refusal(file({{"status", "timeout"}, {"simulated_time", "1.5e-05"}, {"tau", "-0.25"}})), "");
}

namespace {
// A setting of strategy `strategy` whose other key cells are "1" (its key: the cells joined).
Setting setting_of(const std::string& strategy) {
  Setting s;
  for (const std::string& c : kKeyColumns) s.values.push_back(c == "strategy" ? strategy : c == "spec_version" ? "v1" : "1");
  s.key = join_key(s.values);
  return s;
}

// The metric cells of a run that gave `build`.
std::vector<std::string> metrics_of(const std::string& build) {
  return metric_cells("ok", nlohmann::json{{"build", {{"id", build}}}}, 1.0, "", "");
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string refusal_of_row(ResultsFile& file, const Setting& setting, const std::string& build) {
  try {
    file.append(setting, metrics_of(build));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// A row names its build, a plug-in's identity included: a run of another build (its plug-in or the
// simulator replaced while the campaign ran) is refused when its row would be written, naming the
// library, and the file is left as it was; --allow-mixed-builds takes it.
TEST(ResultsFile, RowsOfAnotherBuildAreRefused) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/results_file_test_builds.csv";
  std::remove(path.c_str());
  const Setting plugin = setting_of("plugin:/p/lib.so"), builtin = setting_of("makhoul");
  {
    ResultsFile file(path, "v1", "b1");
    file.accept_plugin_builds({{"/p/lib.so", "plugin-0000000000000001"}});
    EXPECT_EQ(refusal_of_row(file, plugin, "b1+plugin-0000000000000001"), "");
    EXPECT_EQ(refusal_of_row(file, plugin, "b1"), "");  // a run that failed before its JSON: the campaign's
    EXPECT_EQ(refusal_of_row(file, builtin, "b1"), "");
    const std::string before = slurp(path);
    EXPECT_EQ(refusal_of_row(file, plugin, "b1+plugin-0000000000000002"),
              "strategy plug-in /p/lib.so: replaced while the campaign ran (a run loaded plugin-0000000000000002; "
              "the campaign started with plugin-0000000000000001); expected one build per results file \"" + path +
                  "\" (put back the library the campaign started with to go on, or run again into another results "
                  "file or with --allow-mixed-builds)");
    // A built-in's row with a plug-in's build, or another simulator's build: refused too.
    EXPECT_NE(refusal_of_row(file, builtin, "b1+plugin-0000000000000001")
                  .find(": a run of build b1+plugin-0000000000000001; expected this campaign's build b1 (the simulator "
                        "replaced while the campaign ran?"),
              std::string::npos);
    EXPECT_NE(refusal_of_row(file, builtin, "b2").find("a run of build b2; expected this campaign's build b1"),
              std::string::npos);
    EXPECT_EQ(slurp(path), before);
  }
  ResultsFile mixed(path, "v1", "b1", true);
  mixed.accept_plugin_builds({{"/p/lib.so", "plugin-0000000000000001"}});
  EXPECT_EQ(refusal_of_row(mixed, plugin, "b1+plugin-0000000000000002"), "");
  EXPECT_NE(slurp(path).find(",b1+plugin-0000000000000002\n"), std::string::npos) << slurp(path);
  std::remove(path.c_str());
}

}  // namespace hetlb::campaign
