// A campaign run end to end, shared by `hetlb campaign` (local processes) and `hetlb-campaign`
// (MPI ranks): options, the settings left to run, progress lines, the final report.
#pragma once
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "results_file.hpp"
#include "runner.hpp"
#include "spec.hpp"
#include "time_left.hpp"

namespace hetlb::campaign {

struct Options {
  std::string spec, results, plot, ranks, hetlb;
  int jobs = 1;
  double timeout = -1;    // wall seconds per run; < 0: the spec's
  bool yes = false;       // accept more than kConfirmAbove settings
  bool retry = false;     // rerun settings recorded as timeout or failed
  bool report_only = false;  // no run: the report of the results so far
  bool allow_mixed_builds = false;  // add rows to a results file holding rows of another build
  bool smallest_first = false;  // local runs: fewest nodes first, a configuration's variants together
  std::string metric;           // the summary's metric (empty: the mode's)
  int max_nodes = 0;            // > 0: run only the settings with at most this many nodes
  int min_nodes = 0;            // > 0: and with at least this many
  // --only COLUMN=V1,V2: run and summarise only the settings whose key column is one of the values.
  std::map<std::string, std::set<std::string>> only;
  long max_runs = 0;      // > 0: stop starting runs after this many (a piece of the campaign)
  double budget = 0;      // > 0: stop starting runs after this many wall seconds
};

// Reads the spec and applies the options (results path, timeout); refuses more than kConfirmAbove
// settings without --yes, and an --only column or value the spec does not have. Throws hetlb::Error.
Spec prepare(const Options& o);

// Throws hetlb::Error naming an --only column that is not a key column, or a value no setting has.
void check_only(const Spec& spec, const Options& o);

// Indices into spec.settings of the settings without a row (or, with retry, with a timeout/failed
// row), in the spec's order (longest first).
std::vector<std::size_t> left_to_run(const Spec& spec, const std::map<std::string, Row>& rows, bool retry);

// The same settings, fewest nodes first and the variants of one configuration (strategy, k, virtual
// load, integer load) together: a partial campaign then holds complete comparisons.
std::vector<std::size_t> smallest_first(const Spec& spec, std::vector<std::size_t> todo);

// What this invocation runs of `todo`: the settings within --min-nodes, --max-nodes and --only, in
// the order asked for.
std::vector<std::size_t> select(const Spec& spec, std::vector<std::size_t> todo, const Options& o);

// The selection for the progress lines: " (at most N nodes)", " (16 nodes; topology=line)", or "".
std::string selection_text(const Options& o);

// Whether a piece's limits (max_runs, budget) allow starting another run.
class Piece {
 public:
  explicit Piece(const Options& o) : o_(o), start_(std::chrono::steady_clock::now()) {}
  bool may_start(long started) const;

 private:
  const Options& o_;
  std::chrono::steady_clock::time_point start_;
};

// Before a run of setting `s`: throws hetlb::Error naming the plug-in when the setting's plug-in library
// is no longer the one the campaign read (Spec::plugins: replaced, rebuilt or removed since), unless
// o.allow_mixed_builds. Its rows would be another build's (ResultsFile::append refuses them too).
void check_plugin_unchanged(const Spec& spec, const Setting& s, const Options& o);

// Records an outcome in the results file and prints a progress line: run `done` of `total`, the time so
// far (`elapsed` s) and `left`'s estimate of the time left (the outcome counted in it).
void record(ResultsFile& file, const Setting& s, const Outcome& o, std::size_t done, std::size_t total, TimeLeft& left,
            double elapsed);

// Summary on stdout, ranks CSV and figures as asked (from the results file, by column name).
void report(const Spec& spec, const Options& o);

// One line naming the builds the rows come from, when they are more than one (nothing otherwise).
void print_builds(std::ostream& out, const std::map<std::string, Row>& rows);

// hetlb campaign: runs the settings left on o.jobs local processes. Throws hetlb::Error (one line)
// on bad input, and when runs failed.
void run_local(const Options& o);

}  // namespace hetlb::campaign
