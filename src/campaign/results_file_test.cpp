// Reading a campaign's results: a file saved with DOS line ends reads as written; a cell changed by hand
// into something the campaign never writes is refused with the line and the column, not read as another
// value.
#include <gtest/gtest.h>

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

}  // namespace hetlb::campaign
