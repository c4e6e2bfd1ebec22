// The results CSV of a campaign: one row per run, keyed by every parameter (spec.hpp's key columns)
// and read by column name. One campaign at a time (an exclusive lock held while it runs); each row is
// appended with a single write, and a row cut by a kill is dropped when the file is next opened. A
// file replaced or removed under a running campaign (git checkout, an editor's save) is reopened and
// given back the rows it lacks: rows are never written to a file that only the campaign still holds. If
// the new file cannot be used (another campaign's, another spec version's), the rows are saved beside it.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spec.hpp"

namespace hetlb::campaign {

// Metric columns after the key columns. status: ok, timeout or failed.
extern const std::vector<std::string> kMetricColumns;

// One row read by column name.
struct Row {
  std::map<std::string, std::string> cells;
  const std::string& at(const std::string& column) const;
  double number(const std::string& column) const;  // NaN when empty
};

// Rows of a results file by key (a later row of the same key replaces an earlier one). Throws
// hetlb::Error when a key column is missing or a row belongs to another spec version. A missing file
// has no rows.
std::map<std::string, Row> read_results(const std::string& path, const std::string& spec_version);
// The same, from the file's text (`source` names it in errors).
std::map<std::string, Row> parse_results(const std::string& source, const std::string& text,
                                         const std::string& spec_version);

// The results file of a running campaign: locked, checked, repaired, appended to.
class ResultsFile {
 public:
  // Refuses (hetlb::Error, file untouched) a file locked by another campaign, one without the key
  // columns, or one written by another spec version.
  // `result_columns`: the spec's own result columns (Spec::result_columns), after the fixed ones.
  ResultsFile(const std::string& path, const std::string& spec_version, const std::string& build = "",
              bool allow_mixed_builds = false, const std::vector<std::string>& result_columns = {});
  ~ResultsFile();
  ResultsFile(const ResultsFile&) = delete;
  ResultsFile& operator=(const ResultsFile&) = delete;

  const std::map<std::string, Row>& rows() const { return rows_; }
  const std::vector<std::string>& result_columns() const { return result_columns_; }
  // The build whose rows this file takes (the simulator's).
  const std::string& build() const { return build_; }
  // Rows of build() + "+" + each identity (a plug-in's, Spec::plugins: path -> identity) are this build's
  // too; a row of a setting with plug-in PATH is this build's with PATH's identity (or without one: a run
  // that failed before its JSON), and with no other (append).
  void accept_plugin_builds(const std::map<std::string, std::string>& plugins) { plugins_ = plugins; }
  // Before the first row is added (append calls it): refuses (hetlb::Error, file untouched), unless
  // allow_mixed_builds, a file holding rows of another build than `build` (include/hetlb/build_info.hpp;
  // rows without one are "unrecorded"; `build` empty: no check), then gives a file of an older schema
  // the new columns (empty in its rows). A campaign with nothing left to run adds nothing: no check.
  void prepare_to_add();
  // Appends the row of `setting` (one write of the whole line), to the file the path names now;
  // `metrics`: the cells of kMetricColumns then of result_columns(). Unless allow_mixed_builds, a row of
  // another build (its "build" cell: the simulator or the setting's plug-in replaced while the campaign
  // ran) is refused (hetlb::Error naming the plug-in's path, or the builds; the file untouched).
  void append(const Setting& setting, const std::vector<std::string>& metrics);

 private:
  void attach();          // open, lock, read, repair: rows_ and header_ from the file
  void upgrade_header();  // add the columns of kKeyColumns and kMetricColumns the header lacks
  bool replaced() const;  // the path no longer names the file held
  // attach() to the file the path names, and write back the rows it lacks. When that file cannot be
  // used, the rows held and `in_hand` are saved beside it and the error names where.
  void reattach(const std::string& key, const Row& in_hand);
  std::string save_rows_beside() const;  // rows_ in a new file PATH.saved-N.csv; its path
  std::string line_of(const Row& row) const;  // the row's CSV line, in the header's column order
  void write_row(const Row& row);
  void check_build(const Setting& setting, const std::string& build) const;  // append's check of a row's build

  std::string path_, spec_version_, build_;
  bool allow_mixed_builds_ = false, prepared_ = false;
  std::vector<std::string> result_columns_;
  std::map<std::string, std::string> plugins_;  // plug-in path -> identity
  int fd_ = -1;
  std::vector<std::string> header_;
  std::map<std::string, Row> rows_;
};

// Metric cells of a run: from the simulator's JSON when status is "ok". The build cell: the simulator's
// ("build" object of its JSON), else `build`.
std::vector<std::string> metric_cells(const std::string& status, const nlohmann::json& result, double wall_seconds,
                                      const std::string& error, const std::string& build,
                                      const std::vector<std::string>& result_columns = {});

// A row's build: its "build" cell, "unrecorded" when empty or absent (files written before the column).
std::string build_of(const Row& row);
// How many rows of each build.
std::map<std::string, std::size_t> builds_of(const std::map<std::string, Row>& rows);
// "B1 (N1 rows), B2 (N2 rows)".
std::string builds_text(const std::map<std::string, std::size_t>& builds);

}  // namespace hetlb::campaign
