// The steps every campaign entry point shares: prepare, choose what is left, record, report.
#include "campaign.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "hetlb/build_info.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "hetlb/interrupt.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "summary.hpp"
#include "unloaded_plugins.hpp"

namespace hetlb::campaign {

namespace {
// The campaign's inputs: the spec (read_spec registers it), its results and the files its settings
// name (platforms, topologies, initial loads, plug-ins).
void register_inputs(const Spec& spec) {
  register_input(spec.results);
  const std::set<std::string> builtin = {"cluster", "grid", "grid-real", "single", "random"};
  std::set<std::string> named;
  for (const char* column : {"platform", "topology", "initial", "strategy"}) {
    const auto c = static_cast<std::size_t>(std::find(kKeyColumns.begin(), kKeyColumns.end(), column) - kKeyColumns.begin());
    for (const Setting& x : spec.settings) {
      const std::string& value = x.values.at(c);
      if (value.rfind("plugin:", 0) == 0)
        named.insert(value.substr(7));
      else if (std::string(column) != "strategy" && !builtin.count(value) &&
               !(std::string(column) == "topology" && diffusion::is_builtin_topology(value)))
        named.insert(value);
    }
  }
  for (const std::string& path : named) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) register_input(path);
  }
}
}  // namespace

Spec prepare(const Options& o) {
  // Outputs written after the runs are checked before them.
  plot::check_figure_path("--plot", o.plot);
  if (!o.ranks.empty()) check_writable("--ranks", o.ranks);
  if (o.min_nodes > 0 && o.max_nodes > 0 && o.min_nodes > o.max_nodes)
    throw Error(fmt::format("--min-nodes {} --max-nodes {}: expected at most as many nodes as --max-nodes", o.min_nodes,
                            o.max_nodes));
  if (!o.metric.empty()) check_metric(o.metric);  // refused before running
  // A report runs nothing: no plug-in is loaded (its code would run), its settings' keys are the results'.
  Spec spec = read_spec(o.spec, !o.report_only);
  if (!o.metric.empty()) check_metric(o.metric, spec);  // a date the spec asks for
  if (!o.results.empty()) spec.results = o.results;
  register_inputs(spec);  // no output may replace them (output_path.hpp)
  if (has_unloaded_plugins(spec)) resolve_unloaded_plugins(spec, read_results(spec.results, spec.version));
  check_only(spec, o);
  if (o.timeout >= 0) spec.timeout = o.timeout;
  if (spec.settings.size() > kConfirmAbove && !o.yes && !o.report_only)
    throw Error(fmt::format("campaign \"{}\": {} settings; expected at most {} without --yes", o.spec,
                            spec.settings.size(), kConfirmAbove));
  return spec;
}

namespace {
std::string joined(const std::set<std::string>& values) {
  std::string s;
  for (const auto& v : values) s += (s.empty() ? "" : ", ") + (v.empty() ? std::string("\"\" (the defaults)") : v);
  return s;
}
}  // namespace

void check_only(const Spec& spec, const Options& o) {
  for (const auto& [column, values] : o.only) {
    const auto at = std::find(kKeyColumns.begin(), kKeyColumns.end(), column);
    if (at == kKeyColumns.end() || column == "spec_version") {
      std::set<std::string> known(kKeyColumns.begin() + 1, kKeyColumns.end());
      throw Error(fmt::format("--only {}: no such column; expected one of {}", column, joined(known)));
    }
    const auto c = static_cast<std::size_t>(at - kKeyColumns.begin());
    std::set<std::string> in_spec;
    for (const auto& x : spec.settings) in_spec.insert(x.values[c]);
    for (const auto& v : values)
      if (!in_spec.count(v))
        throw Error(fmt::format("--only {}={}: campaign \"{}\" has no setting with {} {}; expected one of {}", column,
                                v, o.spec, column, v, joined(in_spec)));
  }
}

std::vector<std::size_t> left_to_run(const Spec& spec, const std::map<std::string, Row>& rows, bool retry) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    const auto it = rows.find(spec.settings[i].key);
    if (it == rows.end() || (retry && it->second.at("status") != "ok")) todo.push_back(i);
  }
  return todo;
}

std::vector<std::size_t> smallest_first(const Spec& spec, std::vector<std::size_t> todo) {
  const std::set<std::string> variant = {"strategy", "k", "virtual_load", "integer", "params"};
  std::map<std::string, std::size_t> first_seen;  // configuration -> its first setting in spec order
  std::vector<std::size_t> config(spec.settings.size());
  std::map<std::pair<std::string, int>, int> diameters;  // (topology, nodes) -> diameter
  std::vector<int> diameter(spec.settings.size());
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    const Setting& x = spec.settings[i];
    const std::string key = x.key_of([&](const std::string& column) { return !variant.count(column); });
    config[i] = first_seen.emplace(key, i).first->second;
    const auto shape = std::make_pair(x.value("topology"), x.nodes);
    auto it = diameters.find(shape);
    if (it == diameters.end()) {
      int d = 0;  // a topology that does not build fails its own runs; it just goes first here
      try {
        d = diffusion::diameter(diffusion::make_topology(shape.first, shape.second));
      } catch (const Error&) {
      }
      it = diameters.emplace(shape, d).first;
    }
    diameter[i] = it->second;
  }
  // Fewest nodes first; among equal counts the smallest diameter first (diffusion needs iterations
  // that grow with it: at 256 nodes a torus run takes seconds, a line run minutes), so that a partial
  // campaign holds the most complete comparisons.
  std::stable_sort(todo.begin(), todo.end(), [&](std::size_t a, std::size_t b) {
    const int na = spec.settings[a].nodes, nb = spec.settings[b].nodes;
    if (na != nb) return na < nb;
    if (diameter[a] != diameter[b]) return diameter[a] < diameter[b];
    return config[a] < config[b];
  });
  return todo;
}

namespace {
bool outside(const Setting& x, const Options& o) {
  if ((o.max_nodes > 0 && x.nodes > o.max_nodes) || x.nodes < o.min_nodes) return true;
  for (const auto& [column, values] : o.only)
    if (!values.count(x.value(column))) return true;
  return false;
}
}  // namespace

std::vector<std::size_t> select(const Spec& spec, std::vector<std::size_t> todo, const Options& o) {
  std::erase_if(todo, [&](std::size_t i) { return outside(spec.settings[i], o); });
  return o.smallest_first ? smallest_first(spec, std::move(todo)) : todo;
}

std::string selection_text(const Options& o) {
  std::string s;
  if (o.min_nodes > 0 && o.max_nodes > 0)
    s = o.min_nodes == o.max_nodes ? fmt::format("{} nodes", o.min_nodes)
                                   : fmt::format("{} to {} nodes", o.min_nodes, o.max_nodes);
  else if (o.min_nodes > 0)
    s = fmt::format("at least {} nodes", o.min_nodes);
  else if (o.max_nodes > 0)
    s = fmt::format("at most {} nodes", o.max_nodes);
  for (const auto& [column, values] : o.only) {
    std::string list;
    for (const auto& v : values) list += (list.empty() ? "" : ",") + v;
    s += fmt::format("{}{}={}", s.empty() ? "" : "; ", column, list);
  }
  return s.empty() ? s : " (" + s + ")";
}

bool Piece::may_start(long started) const {
  if (o_.max_runs > 0 && started >= o_.max_runs) return false;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return !(o_.budget > 0 && elapsed >= o_.budget);
}

void check_plugin_unchanged(const Spec& spec, const Setting& s, const Options& o) {
  if (o.allow_mixed_builds) return;  // rows of every build allowed: each names its own
  const std::string strategy = s.value("strategy");
  if (strategy.rfind("plugin:", 0) != 0) return;
  const auto it = spec.plugins.find(strategy.substr(7));
  if (it == spec.plugins.end()) return;
  const std::string now = diffusion::plugin_identity(it->first);
  if (now == it->second) return;
  if (now.empty())
    throw Error(fmt::format("strategy plug-in {}: removed or unreadable while the campaign ran (it started with {}); "
                            "expected the library it started with (put it back and run the campaign again)",
                            it->first, it->second));
  throw Error(fmt::format("strategy plug-in {}: replaced while the campaign ran ({} now; the campaign started with {}); "
                          "expected one build per results file \"{}\" (put back the library the campaign started with "
                          "to go on, or run again into another results file or with --allow-mixed-builds)",
                          it->first, now, it->second, spec.results));
}

void record(ResultsFile& file, const Setting& s, const Outcome& o, std::size_t done, std::size_t total, TimeLeft& left,
            double elapsed) {
  file.append(s, metric_cells(o.status, o.result, o.wall_seconds, o.error, file.build().empty() ? build_id() : file.build(),
                              file.result_columns()));
  left.finished(o.id, o.wall_seconds);
  const std::string when = left.text(elapsed);
  if (o.status == "ok")
    fmt::print(stderr, "[{}/{}] {} ({:.1f} s; {})\n", done, total, s.key, o.wall_seconds, when);
  else
    fmt::print(stderr, "[{}/{}] {}: {}: {} ({})\n", done, total, s.key, o.status, o.error, when);
}

void report(const Spec& spec, const Options& o) {
  // The report's files are whole once it is: written together now, even if the campaign then exits 1
  // for its failed runs (output_path.hpp).
  OutputTransaction outputs;
  const auto rows = read_results(spec.results, spec.version);
  Spec shown = spec;  // --min-nodes, --max-nodes, --only: the summary of the settings run, not of the others
  std::erase_if(shown.settings, [&](const Setting& x) { return outside(x, o); });
  const Comparison c = compare(shown, rows, o.metric);
  print_summary(std::cout, c);
  print_builds(std::cout, rows);
  std::cout.flush();
  if (o.report_only) {  // what a run of the same selection would have left to do, and how long
    const auto todo = select(spec, left_to_run(spec, rows, o.retry), o);
    if (!todo.empty()) {
      const std::string e = TimeLeft(spec, todo, rows, o.jobs).estimate();
      fmt::print(stderr, "hetlb campaign: {} of {} settings left to run{}{}\n", todo.size(), spec.settings.size(),
                 selection_text(o), e.empty() ? "" : fmt::format("; on {} jobs, {}", o.jobs, e));
    }
  }
  if (!o.ranks.empty()) write_ranks_csv(c, o.ranks);
  if (!o.plot.empty()) plot_comparison(c, o.plot);
  outputs.commit();
}

void print_builds(std::ostream& out, const std::map<std::string, Row>& rows) {
  // Mixed: rows of two hetlb builds, or of two builds of one strategy (a rebuilt plug-in: its rows'
  // build is hetlb's + "+plugin-..."); built-in and plug-in rows of one hetlb build are not.
  std::set<std::string> hetlb_builds;
  std::map<std::string, std::set<std::string>> per_strategy;
  for (const auto& [key, row] : rows) {
    const std::string b = build_of(row);
    hetlb_builds.insert(b.substr(0, b.find('+')));
    per_strategy[row.at("strategy")].insert(b);
  }
  bool mixed = hetlb_builds.size() > 1;
  for (const auto& [strategy, builds] : per_strategy) mixed = mixed || builds.size() > 1;
  if (mixed) out << fmt::format("\nBuilds mixed in these results: {}.\n", builds_text(builds_of(rows)));
}

void run_local(const Options& o) {
  const Spec spec = prepare(o);
  if (o.report_only) {
    report(spec, o);
    return;
  }
  std::size_t failed = 0, started = 0;
  {
    const std::string hetlb = o.hetlb.empty() ? hetlb_beside_self() : o.hetlb;
    // The rows are the simulator's: its build, not this program's, is the file's (--hetlb may be another).
    ResultsFile file(spec.results, spec.version, simulator_build_id(hetlb, build_id()), o.allow_mixed_builds,
                     spec.result_columns);
    file.accept_plugin_builds(spec.plugins);
    const auto left = left_to_run(spec, file.rows(), o.retry);
    const auto todo = select(spec, left, o);
    if (!todo.empty()) file.prepare_to_add();  // another build's rows: refused before any run
    TimeLeft time_left(spec, todo, file.rows(), o.jobs);
    const std::string estimate = time_left.estimate();
    fmt::print(stderr, "hetlb campaign: {} settings, {} done in {}, {} to run{} on {} jobs{}\n", spec.settings.size(),
               spec.settings.size() - left.size(), spec.results, todo.size(), selection_text(o), o.jobs,
               estimate.empty() ? "" : ", " + estimate);
    Runner runner(hetlb, spec.timeout);
    const Piece piece(o);
    const auto start = std::chrono::steady_clock::now();
    std::size_t finished = 0, dropped = 0;
    // SIGINT, SIGTERM (hetlb/interrupt.hpp): no run starts any more, the runs in progress are killed and
    // not recorded (the Runner's destructor: no orphan, no temporary file), the rows written stay whole
    // (each is one write, resumed if the signal lands in it) and the command exits 130 or 143.
    install_interrupt_handlers();
    for (;;) {
      while (!interrupted() && started < todo.size() && static_cast<int>(runner.running()) < o.jobs &&
             piece.may_start(static_cast<long>(started))) {
        check_plugin_unchanged(spec, spec.settings[todo[started]], o);  // a rebuilt plug-in: another build
        runner.start(todo[started], spec.settings[todo[started]].args);
        ++started;
      }
      if (runner.running() == 0 || interrupted()) break;
      for (const Outcome& out : runner.wait_for(0.2)) {
        // A run that failed as the campaign was interrupted may have been stopped by the same signal
        // (Ctrl-C reaches the whole process group): not recorded, it runs again next time.
        if (interrupted() && out.status == "failed") {
          ++dropped;
          continue;
        }
        ++finished;
        failed += out.status == "failed";
        record(file, spec.settings[out.id], out, finished, todo.size(), time_left,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
    }
    if (interrupted())
      throw Interrupted(fmt::format("campaign interrupted by {}: {} runs recorded in {}, {} stopped and not recorded, "
                                    "{} not started; the same command resumes it",
                                    interrupt_signal_name(), finished, spec.results, runner.running() + dropped,
                                    todo.size() - started));
    if (started < todo.size())
      fmt::print(stderr, "hetlb campaign: piece done, {} settings left (run the same command again)\n",
                 todo.size() - started);
  }
  report(spec, o);
  if (failed > 0) throw Error(fmt::format("campaign: {} of {} runs failed (recorded; see above)", failed, started));
}

}  // namespace hetlb::campaign
