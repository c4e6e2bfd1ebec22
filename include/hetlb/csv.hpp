// The one way hetlb writes a CSV cell (RFC 4180): a cell holding a comma, a double quote or a line
// break is double-quoted, its quotes doubled; any other cell is written as it is. Every CSV the
// command line writes (scatter, compare, --ranks, --trace) goes through csv_cell.
#pragma once
#include <string>
#include <string_view>

namespace hetlb {

inline std::string csv_cell(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace hetlb
