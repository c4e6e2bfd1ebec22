// hetlb campaign SPEC.json [-j JOBS]: the paper's parameter matrix of diffusion simulations, run as
// parallel `hetlb simulate diffusion` processes; resumable (settings already in the results CSV are
// skipped), progress on stderr, and a summary table comparing strategies on stdout.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "hetlb/plot/strategy_bars.hpp"

namespace hetlb::cli {

namespace {
using nlohmann::json;

struct Setting {
  std::vector<std::string> args;  // after "simulate diffusion"
  std::string key;                // CSV key columns, comma-separated
};

const char* const kKeyColumns = "strategy,k,virtual_load,integer,platform,nodes,topology,initial,ratio,seed";
const char* const kMetricColumns[] = {"converged", "avg_idle_time", "avg_convergence_date", "max_convergence_date",
                                      "data_transfer_amount", "load_spread_percent", "ctrl_messages",
                                      "data_messages", "simulated_time", "wall_seconds"};

template <class T>
std::vector<T> list(const json& spec, const char* name, std::vector<T> fallback) {
  if (!spec.contains(name)) return fallback;
  const json& v = spec.at(name);
  try {
    if (!v.is_array()) return {v.get<T>()};
    std::vector<T> out = v.get<std::vector<T>>();
    if (out.empty()) throw Error("empty");
    return out;
  } catch (const std::exception&) {
    throw Error(fmt::format("campaign: \"{}\" = {}; expected a non-empty list", name, v.dump()));
  }
}

std::vector<Setting> expand(const json& spec) {
  const auto strategies = list<std::string>(spec, "strategies", {"besteffort:1", "besteffort:2", "besteffort:4", "makhoul"});
  const auto virt = list<bool>(spec, "virtual_load", {false, true});
  const auto integer = list<bool>(spec, "integer", {false, true});
  const auto platforms = list<std::string>(spec, "platforms", {"cluster", "grid"});
  const auto sizes = list<int>(spec, "nodes", {16, 64, 256, 1024});
  const auto topologies = list<std::string>(spec, "topologies", {"line", "torus", "hypercube"});
  const auto initials = list<std::string>(spec, "initial", {"single", "random"});
  const auto ratios = list<double>(spec, "ratios", {10, 1, 0.1});
  const auto seeds = list<long long>(spec, "seeds", {1});
  const long long iterations = spec.value("iterations", 2000LL);
  std::vector<Setting> out;
  for (const auto& st : strategies)
    for (bool v : virt)
      for (bool in : integer)
        for (const auto& pf : platforms)
          for (int n : sizes)
            for (const auto& tp : topologies)
              for (const auto& init : initials)
                for (double r : ratios)
                  for (long long seed : seeds) {
                    const auto colon = st.find(':');
                    const std::string name = st.substr(0, colon);
                    const std::string k = colon == std::string::npos ? "1" : st.substr(colon + 1);
                    Setting s;
                    s.args = {"--strategy", name, "--k", k, "--platform", pf, "--nodes", std::to_string(n),
                              "--topology", tp, "--initial", init, "--ratio", fmt::format("{}", r), "--seed",
                              std::to_string(seed), "--iterations", std::to_string(iterations), "--format", "json"};
                    if (v) s.args.push_back("--virtual-load");
                    if (in) s.args.push_back("--integer");
                    s.key = fmt::format("{},{},{},{},{},{},{},{},{},{}", name, k, v, in, pf, n, tp, init, r, seed);
                    out.push_back(std::move(s));
                  }
  return out;
}

std::set<std::string> done_keys(const std::string& path) {
  std::set<std::string> keys;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return keys;
  for (; std::getline(in, line);) {
    std::size_t pos = 0;
    for (int c = 0; c < 10 && pos != std::string::npos; ++c) pos = line.find(',', pos + (c ? 1 : 0));
    if (pos != std::string::npos) keys.insert(line.substr(0, pos));
  }
  return keys;
}

struct Job {
  pid_t pid;
  std::size_t index;
  std::string out, err;
  std::chrono::steady_clock::time_point start;
};

std::string temp_file() {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/hetlb-campaign-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw Error("campaign: cannot create a temporary file");
  close(fd);
  return path;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Job launch(const Setting& s, std::size_t index) {
  Job j{0, index, temp_file(), temp_file(), std::chrono::steady_clock::now()};
  std::vector<std::string> argv{"hetlb", "simulate", "diffusion"};
  argv.insert(argv.end(), s.args.begin(), s.args.end());
  j.pid = fork();
  if (j.pid < 0) throw Error("campaign: fork failed");
  if (j.pid == 0) {
    if (!std::freopen(j.out.c_str(), "w", stdout) || !std::freopen(j.err.c_str(), "w", stderr)) _exit(127);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv("/proc/self/exe", cargv.data());
    _exit(127);
  }
  return j;
}

std::string csv_row(const std::string& key, const json& j) {
  std::string row = key;
  for (const char* m : kMetricColumns) {
    const json& v = j.contains(m) ? j.at(m) : json(nullptr);
    row += "," + (v.is_null() ? std::string() : v.is_boolean() ? std::string(v.get<bool>() ? "1" : "0") : v.dump());
  }
  return row;
}

// Mean of each metric per strategy variant (strategy, k, virtual, integer) over the results file.
struct Acc {
  int runs = 0, converged = 0;
  double conv = 0, maxconv = 0, transfer = 0, idle = 0;
  int conv_n = 0;
};

std::map<std::string, Acc> summarize(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::map<std::string, Acc> by;
  for (; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (f.size() < 20) continue;
    const std::string variant = fmt::format("{} k={}{}{}", f[0], f[1], f[2] == "true" ? " +virtual" : "",
                                            f[3] == "true" ? " integer" : " real");
    Acc& a = by[variant];
    ++a.runs;
    a.converged += f[10] == "1";
    a.idle += f[11].empty() ? 0 : std::stod(f[11]);
    if (!f[12].empty() && !f[13].empty() && f[10] == "1") {
      a.conv += std::stod(f[12]);
      a.maxconv += std::stod(f[13]);
      ++a.conv_n;
    }
    a.transfer += f[14].empty() ? 0 : std::stod(f[14]);
  }
  return by;
}

void print_summary(const std::map<std::string, Acc>& by) {
  fmt::print("| strategy | runs | converged | mean avg idle (s) | mean avg conv. date (s) | mean max conv. date (s) "
             "| mean data transfer |\n|---|---|---|---|---|---|---|\n");
  for (const auto& [variant, a] : by)
    fmt::print("| {} | {} | {} | {:.4g} | {} | {} | {:.4g} |\n", variant, a.runs, a.converged, a.idle / a.runs,
               a.conv_n ? fmt::format("{:.4g}", a.conv / a.conv_n) : "-",
               a.conv_n ? fmt::format("{:.4g}", a.maxconv / a.conv_n) : "-", a.transfer / a.runs);
}

// The summary as bars: mean maximum convergence date, mean data transfer, mean idle time.
void plot_summary(const std::map<std::string, Acc>& by, const std::string& title, const std::string& path) {
  std::vector<plot::StrategyBar> bars;
  for (const auto& [variant, a] : by)
    bars.push_back({variant, {a.conv_n ? a.maxconv / a.conv_n : NAN, a.transfer / a.runs, a.idle / a.runs}});
  plot::render_strategy_bars({"max conv. date (s)", "data transfer / total load", "avg idle time (s)"}, bars, title,
                             path);
}

void run_campaign(const std::string& spec_path, int jobs, std::string results, const std::string& plot_path) {
  if (!plot_path.empty()) plot::terminal_for(plot_path);  // refuse a bad figure name before running
  std::ifstream in(spec_path);
  if (!in) throw Error(fmt::format("campaign \"{}\": no such file; expected a JSON specification", spec_path));
  json spec;
  try {
    spec = json::parse(in);
  } catch (const std::exception& e) {
    throw Error(fmt::format("campaign \"{}\": invalid JSON ({}); expected an object", spec_path, e.what()));
  }
  if (!spec.is_object()) throw Error(fmt::format("campaign \"{}\": expected a JSON object", spec_path));
  if (results.empty()) results = spec.value("results", spec_path + ".csv");
  const std::vector<Setting> settings = expand(spec);
  const std::set<std::string> done = done_keys(results);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < settings.size(); ++i)
    if (!done.count(settings[i].key)) todo.push_back(i);
  const bool fresh = !std::ifstream(results).good();
  std::ofstream out(results, std::ios::app);
  if (!out) throw Error(fmt::format("campaign: results \"{}\": cannot write", results));
  if (fresh) {
    out << kKeyColumns;
    for (const char* m : kMetricColumns) out << "," << m;
    out << "\n" << std::flush;
  }
  fmt::print(stderr, "hetlb campaign: {} settings, {} already in {}, {} to run on {} jobs\n", settings.size(),
             settings.size() - todo.size(), results, todo.size(), jobs);
  std::vector<Job> running;
  std::size_t next = 0, finished = 0, failed = 0;
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && static_cast<int>(running.size()) < jobs) {
      running.push_back(launch(settings[todo[next]], todo[next]));
      ++next;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    for (auto it = running.begin(); it != running.end(); ++it) {
      if (it->pid != pid) continue;
      const Setting& s = settings[it->index];
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - it->start).count();
      ++finished;
      bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      if (ok) {
        try {
          out << csv_row(s.key, json::parse(slurp(it->out))) << "\n" << std::flush;
        } catch (const std::exception&) {
          ok = false;
        }
      }
      if (!ok) {
        ++failed;
        std::string err = slurp(it->err);
        const auto last = err.rfind("hetlb: error:");
        err = last == std::string::npos ? "crashed" : err.substr(last, err.find('\n', last) - last);
        fmt::print(stderr, "[{}/{}] {}: FAILED: {}\n", finished, todo.size(), s.key, err);
      } else {
        fmt::print(stderr, "[{}/{}] {} ({:.1f} s)\n", finished, todo.size(), s.key, secs);
      }
      std::remove(it->out.c_str());
      std::remove(it->err.c_str());
      running.erase(it);
      break;
    }
  }
  out.close();
  const auto summary = summarize(results);
  print_summary(summary);
  if (!plot_path.empty()) plot_summary(summary, spec_path, plot_path);
  if (failed > 0) throw Error(fmt::format("campaign: {} of {} runs failed (see above)", failed, todo.size()));
}
}  // namespace

void add_campaign_command(CLI::App& app) {
  struct Options {
    std::string spec, results, plot;
    int jobs = 1;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("campaign", "Run a matrix of diffusion simulations (resumable, parallel)");
  sub->add_option("spec", o->spec, "campaign JSON (lists: strategies, virtual_load, integer, platforms, nodes, "
                                   "topologies, initial, ratios, seeds; iterations; results)")
      ->required();
  sub->add_option("-j,--jobs", o->jobs, "parallel simulations")->check(CLI::Range(1, 256))->capture_default_str();
  sub->add_option("--results", o->results, "results CSV (default: the spec's \"results\", else SPEC.json.csv)");
  sub->add_option("--plot", o->plot, "bar charts comparing the strategies (FILE.png or FILE.svg)");
  sub->callback([o] { run_campaign(o->spec, o->jobs, o->results, o->plot); });
}

}  // namespace hetlb::cli
