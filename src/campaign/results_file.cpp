// Results CSV: header of column names, rows read by name, exclusive lock (flock, released by the
// kernel when the process dies), single-write appends and the repair of a row cut by a kill.
#include "results_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/temp_file.hpp"

namespace hetlb::campaign {

const std::vector<std::string> kMetricColumns = {
    "status", "converged", "converged_nodes", "avg_idle_time", "avg_convergence_date", "max_convergence_date",
    "data_transfer_amount", "computed_load", "load_spread_percent", "ctrl_messages", "data_messages",
    "simulated_time", "tau", "streaks_computed", "wall_seconds", "error",
    // Appended after "error" (files written before it lack it: read as empty cells): the build.
    "build"};

std::string build_of(const Row& row) {
  const std::string& b = row.at("build");
  return b.empty() ? "unrecorded" : b;
}

std::map<std::string, std::size_t> builds_of(const std::map<std::string, Row>& rows) {
  std::map<std::string, std::size_t> count;
  for (const auto& [key, row] : rows) ++count[build_of(row)];
  return count;
}

std::string builds_text(const std::map<std::string, std::size_t>& builds) {
  std::string s;
  for (const auto& [build, rows] : builds) s += fmt::format("{}{} ({} rows)", s.empty() ? "" : ", ", build, rows);
  return s;
}

const std::string& Row::at(const std::string& column) const {
  static const std::string empty;
  const auto it = cells.find(column);
  return it == cells.end() ? empty : it->second;
}

double Row::number(const std::string& column) const {
  const std::string& s = at(column);
  if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
  try {
    return std::stod(s);
  } catch (const std::exception&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

namespace {
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> f;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    f.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return f;
    start = comma + 1;
  }
}

// Complete lines of `text` (a last line without its newline was cut by a kill: ignored), without the
// carriage return of a line saved by an editor with DOS line ends.
std::vector<std::string> complete_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl > start && text[nl - 1] == '\r' ? nl - start - 1 : nl - start));
  return lines;
}

// The cells the campaign writes, as it writes them: a row changed by hand that reads otherwise (a status
// "OK", "yes" for converged, a negative count, a control character) is refused, not read as something
// else. "" where the run gave no value.
const char* bad_cell(const std::string& column, const std::string& value) {
  if (std::any_of(value.begin(), value.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return "a cell without control characters";
  if (column == "status")
    return value == "ok" || value == "timeout" || value == "failed" ? nullptr : "ok, timeout or failed";
  if (value.empty() || column == "error" || column == "build") return nullptr;
  if (column == "converged") return value == "0" || value == "1" ? nullptr : "0, 1 or empty";
  if (column == "converged_nodes")
    return value.find_first_not_of("0123456789") == std::string::npos ? nullptr : "a whole number >= 0 or empty";
  if (std::find(kMetricColumns.begin(), kMetricColumns.end(), column) == kMetricColumns.end()) return nullptr;
  double x = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), x);
  return ec == std::errc() && end == value.data() + value.size() && std::isfinite(x) ? nullptr : "a number or empty";
}

// Parses `text`; the header is returned in `header` (empty for an empty file).
std::map<std::string, Row> parse(const std::string& path, const std::string& text, const std::string& version,
                                 std::vector<std::string>& header) {
  std::map<std::string, Row> rows;
  const auto lines = complete_lines(text);
  header.clear();
  if (lines.empty()) return rows;
  header = split(lines[0]);
  for (const auto& column : kKeyColumns)
    if (column != "params" && std::find(header.begin(), header.end(), column) == header.end())
      throw Error(fmt::format("results \"{}\": no column \"{}\"; expected a results file of hetlb campaign "
                              "(a file of an older format: use another results file)",
                              path, column));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i]);
    if (cells.size() != header.size())
      throw Error(fmt::format("results \"{}\": line {} has {} cells; expected {} as in the header", path, i + 1,
                              cells.size(), header.size()));
    Row row;
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (const char* expected = bad_cell(header[c], cells[c]))
        throw Error(fmt::format("results \"{}\": line {}, column \"{}\": {}; expected {} (a row changed by hand: "
                                "use another results file)",
                                path, i + 1, header[c], printable(cells[c]), expected));
      row.cells[header[c]] = cells[c];
    }
    if (row.at("spec_version") != version)
      throw Error(fmt::format("results \"{}\": line {} written by spec version \"{}\"; expected \"{}\" (the spec's "
                              "version: use another results file)",
                              path, i + 1, row.at("spec_version"), version));
    std::vector<std::string> key;
    for (const auto& column : kKeyColumns) key.push_back(row.at(column));
    rows[join_key(key)] = std::move(row);
  }
  return rows;
}

std::string read_all(int fd) {
  std::string text;
  char buf[65536];
  for (ssize_t got; (got = pread(fd, buf, sizeof buf, static_cast<off_t>(text.size()))) > 0;)
    text.append(buf, static_cast<std::size_t>(got));
  return text;
}

void write_all(int fd, const std::string& s, const std::string& path) {
  const char* p = s.data();
  for (std::size_t left = s.size(); left > 0;) {
    const ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw Error(fmt::format("results \"{}\": cannot write ({})", path, std::strerror(errno)));
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

std::string cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}
}  // namespace

namespace {
// The results file is read whole and appended to: a regular file, or a path with nothing yet. A device
// (/dev/zero reads forever), a named pipe (blocks) or a socket is refused before it is opened.
void check_results_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;  // created by the campaign
  if (S_ISDIR(st.st_mode)) throw Error(fmt::format("results \"{}\": is a directory; expected a results CSV file", path));
  if (!S_ISREG(st.st_mode))
    throw Error(fmt::format("results \"{}\": is not a regular file; expected a results CSV file (or a new path)", path));
}
}  // namespace

std::map<std::string, Row> read_results(const std::string& path, const std::string& spec_version) {
  check_results_path(path);
  register_input(path);  // no output of the command may replace it (output_path.hpp)
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream s;
  s << in.rdbuf();
  return parse_results(path, s.str(), spec_version);
}

std::map<std::string, Row> parse_results(const std::string& source, const std::string& text,
                                         const std::string& spec_version) {
  std::vector<std::string> header;
  return parse(source, text, spec_version, header);
}

ResultsFile::ResultsFile(const std::string& path, const std::string& spec_version, const std::string& build,
                         bool allow_mixed_builds, const std::vector<std::string>& result_columns)
    : path_(path),
      spec_version_(spec_version),
      build_(build),
      allow_mixed_builds_(allow_mixed_builds),
      result_columns_(result_columns) {
  attach();
}

void ResultsFile::prepare_to_add() {
  if (prepared_) return;
  if (!build_.empty()) {
    auto others = builds_of(rows_);
    std::string ours = build_;
    others.erase(build_);
    std::set<std::string> identities;
    for (const auto& [path, identity] : plugins_) identities.insert(identity);
    for (const std::string& plugin : identities) {
      others.erase(build_ + "+" + plugin);
      ours += ", " + build_ + "+" + plugin;
    }
    if (!others.empty() && !allow_mixed_builds_)
      throw Error(fmt::format("results \"{}\": rows of another build, {}; expected rows of this build, {} (use another "
                              "results file, or --allow-mixed-builds to add to it)",
                              path_, builds_text(others), ours));
  }
  upgrade_header();
  prepared_ = true;
}

void ResultsFile::upgrade_header() {
  std::vector<std::string> full = kKeyColumns;
  full.insert(full.end(), kMetricColumns.begin(), kMetricColumns.end());
  full.insert(full.end(), result_columns_.begin(), result_columns_.end());
  std::vector<std::string> header = header_;
  for (const auto& column : full)
    if (std::find(header.begin(), header.end(), column) == header.end()) header.push_back(column);
  if (header == header_) return;
  // A file of an older schema, before this campaign's first row: rewritten whole with the new columns
  // (empty in its rows), through a file renamed over it, then held again.
  const std::string text = read_all(fd_);
  std::string out = join_key(header) + "\n";
  const auto lines = complete_lines(text);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i]);
    std::vector<std::string> row(header.size());
    for (std::size_t c = 0; c < cells.size(); ++c) row[c] = cells[c];  // the old columns come first
    out += join_key(row) + "\n";
  }
  // The new file is created exclusively beside the one the path names (hetlb/temp_file.hpp): a link
  // planted under a predictable name is never written through.
  try {
    TempFile temp(output_target(path_));
    temp.stream() << out;
    temp.rename_over(output_target(path_));
  } catch (const std::system_error& e) {
    throw Error(fmt::format("results \"{}\": cannot add the columns of this version ({}); expected a writable folder",
                            path_, std::strerror(e.code().value())));
  }
  close(fd_);
  fd_ = -1;
  attach();
}

void ResultsFile::attach() {
  check_results_path(path_);
  register_input(path_);  // no output of the command may replace it (output_path.hpp)
  // O_NONBLOCK: a named pipe put in its place since is not waited on (the check below refuses it).
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd_ < 0)
    throw Error(fmt::format("results \"{}\": cannot open ({}); expected a writable path", path_, std::strerror(errno)));
  struct stat st {};
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd_);
    fd_ = -1;
    check_results_path(path_);
    throw Error(fmt::format("results \"{}\": is not a regular file; expected a results CSV file", path_));
  }
  fcntl(fd_, F_SETFL, fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    close(fd_);
    fd_ = -1;
    throw Error(fmt::format("results \"{}\": in use by another campaign (locked); expected one campaign per "
                            "results file",
                            path_));
  }
  try {
    const std::string text = read_all(fd_);
    rows_ = parse(path_, text, spec_version_, header_);
    const auto end = text.rfind('\n');
    const std::size_t complete = end == std::string::npos ? 0 : end + 1;
    if (complete < text.size()) {  // a row cut by a kill: dropped
      if (ftruncate(fd_, static_cast<off_t>(complete)) != 0)
        throw Error(fmt::format("results \"{}\": cannot drop a cut last row ({})", path_, std::strerror(errno)));
      fmt::print(stderr, "hetlb campaign: results \"{}\": dropped a cut last row ({} bytes)\n", path_,
                 text.size() - complete);
    }
    if (header_.empty()) {
      header_ = kKeyColumns;
      header_.insert(header_.end(), kMetricColumns.begin(), kMetricColumns.end());
      header_.insert(header_.end(), result_columns_.begin(), result_columns_.end());
      write_all(fd_, join_key(header_) + "\n", path_);
    }
  } catch (...) {
    close(fd_);
    fd_ = -1;
    throw;
  }
}

bool ResultsFile::replaced() const {
  struct stat held {}, named {};
  if (fstat(fd_, &held) != 0) return false;  // cannot tell: keep writing where the lock is
  return stat(path_.c_str(), &named) != 0 || named.st_ino != held.st_ino || named.st_dev != held.st_dev;
}

void ResultsFile::reattach(const std::string& key, const Row& in_hand) {
  std::map<std::string, Row> ours = std::move(rows_);
  const std::vector<std::string> header = header_;
  close(fd_);  // releases the lock on the file no longer named by the path
  fd_ = -1;
  try {
    attach();
  } catch (const Error& e) {
    // The new file cannot take our rows (another campaign's lock, another spec version): they go to a
    // file of their own rather than away with the file no longer named.
    ours[key] = in_hand;
    rows_ = std::move(ours);
    header_ = header;
    throw Error(fmt::format("{}; this campaign's {} rows are saved in \"{}\" (move it back to resume)", e.what(),
                            rows_.size(), save_rows_beside()));
  }
  int written = 0;
  for (const auto& [k, row] : ours) {
    if (rows_.count(k)) continue;  // the file's own row for a setting is kept
    write_row(row);
    rows_[k] = row;
    ++written;
  }
  fmt::print(stderr,
             "hetlb campaign: results \"{}\" was replaced or removed while the campaign ran (an editor, git checkout "
             "or stash?): reopened it and wrote back the {} rows it lacked\n",
             path_, written);
}

std::string ResultsFile::save_rows_beside() const {
  std::string text = join_key(header_) + "\n";
  for (const auto& [key, row] : rows_) text += line_of(row);
  for (int n = 1; n < 1000; ++n) {
    const std::string saved = fmt::format("{}.saved-{}.csv", path_, n);
    const int fd = open(saved.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) break;
    try {
      write_all(fd, text, saved);
    } catch (const Error&) {
      close(fd);
      std::remove(saved.c_str());
      break;
    }
    close(fd);
    return saved;
  }
  // Nowhere to save them: the rows go to stderr, the one place left (the error line follows them).
  fmt::print(stderr, "{}", text);
  return "(none: cannot write beside the results; the rows are above)";
}

std::string ResultsFile::line_of(const Row& row) const {
  std::vector<std::string> cells;
  for (const auto& column : header_) cells.push_back(row.at(column));
  return join_key(cells) + "\n";
}

void ResultsFile::write_row(const Row& row) { write_all(fd_, line_of(row), path_); }

ResultsFile::~ResultsFile() {
  if (fd_ >= 0) close(fd_);
}

void ResultsFile::check_build(const Setting& setting, const std::string& build) const {
  if (build_.empty() || allow_mixed_builds_ || build == build_) return;
  const std::string strategy = setting.value("strategy");
  const auto plugin = strategy.rfind("plugin:", 0) == 0 ? plugins_.find(strategy.substr(7)) : plugins_.end();
  if (plugin != plugins_.end() && build == build_ + "+" + plugin->second) return;
  const std::string fix = "to go on, or run again into another results file or with --allow-mixed-builds";
  // The simulator's build followed by another plug-in identity: the library was replaced since the
  // campaign read it (rebuilt, copied over) and this run loaded the new one.
  if (plugin != plugins_.end() && build.rfind(build_ + "+plugin-", 0) == 0)
    throw Error(fmt::format("strategy plug-in {}: replaced while the campaign ran (a run loaded {}; the campaign started "
                            "with {}); expected one build per results file \"{}\" (put back the library the campaign "
                            "started with {})",
                            plugin->first, build.substr(build_.size() + 1), plugin->second, path_, fix));
  throw Error(fmt::format("results \"{}\": a run of build {}; expected this campaign's build {} (the simulator replaced "
                          "while the campaign ran? put back the one it started with {})",
                          path_, build, build_, fix));
}

void ResultsFile::append(const Setting& setting, const std::vector<std::string>& metrics) {
  prepare_to_add();
  check_build(setting, metrics.at(static_cast<std::size_t>(
                           std::find(kMetricColumns.begin(), kMetricColumns.end(), "build") - kMetricColumns.begin())));
  Row row;
  for (std::size_t i = 0; i < kKeyColumns.size(); ++i) row.cells[kKeyColumns[i]] = setting.values[i];
  for (std::size_t i = 0; i < kMetricColumns.size(); ++i) row.cells[kMetricColumns[i]] = metrics.at(i);
  for (std::size_t i = 0; i < result_columns_.size(); ++i)
    row.cells[result_columns_[i]] = metrics.at(kMetricColumns.size() + i);
  // Rows written to a file that the path no longer names would be lost with it.
  if (replaced()) reattach(setting.key, row);
  write_row(row);
  rows_[setting.key] = std::move(row);
}

std::vector<std::string> metric_cells(const std::string& status, const nlohmann::json& result, double wall_seconds,
                                      const std::string& error, const std::string& build,
                                      const std::vector<std::string>& result_columns) {
  std::string message = error;
  for (char& c : message)
    if (c == ',' || c == '\n' || c == '\r' || c == '"') c = c == ',' ? ';' : ' ';
  std::vector<std::string> cells;
  for (const auto& column : kMetricColumns) {
    if (column == "status")
      cells.push_back(status);
    else if (column == "wall_seconds")
      cells.push_back(fmt::format("{:.3f}", wall_seconds));
    else if (column == "error")
      cells.push_back(message);
    else if (column == "build")  // the simulator's own when it said, else the campaign's
      cells.push_back(status == "ok" && result.contains("build") && result.at("build").is_object() &&
                              result.at("build").contains("id") && result.at("build").at("id").is_string()
                          ? result.at("build").at("id").get<std::string>()
                          : build);
    else if (status == "ok" && result.contains(column))
      cells.push_back(cell(result.at(column)));
    else
      cells.push_back("");
  }
  for (const auto& column : result_columns) {
    if (column.rfind("param_", 0) == 0) {  // a parameter of the strategy as run (Spec::param_columns)
      const std::string name = column.substr(6);
      const bool has = status == "ok" && result.contains("strategy_params") && result.at("strategy_params").is_object() &&
                       result.at("strategy_params").contains(name);
      cells.push_back(has ? cell(result.at("strategy_params").at(name)) : "");
      continue;
    }
    cells.push_back(status == "ok" && result.contains(column) ? cell(result.at(column)) : "");
  }
  return cells;
}

}  // namespace hetlb::campaign
