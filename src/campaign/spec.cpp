// Campaign spec: strict reading (unknown keys, unknown values and empty lists are refused) and the
// expansion of its lists into settings, each keyed by every parameter of the run.
#include "spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/diffusion/imbalance_curve.hpp"
#include "hetlb/diffusion/minimum_iteration.hpp"
#include "hetlb/diffusion/run_scale.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"
#include "json_input.hpp"

namespace hetlb::campaign {

const std::vector<std::string> kKeyColumns = {
    "spec_version", "mode", "strategy", "k", "virtual_load", "integer", "estimates", "platform", "nodes", "topology",
    "initial", "ratio", "seed", "load_per_node", "iterations", "time_limit", "min_comp_iter", "min_lb_iter",
    // The strategy's parameters set away from their defaults, k aside ("NAME=VALUE;...", in declaration
    // order; empty: all defaults). Files written before it lack it: read as empty.
    "params"};

bool CompareGroups::is_subject(const std::string& strategy) const {
  return std::find(subject.begin(), subject.end(), strategy) != subject.end();
}

bool CompareGroups::is_against(const std::string& strategy) const {
  if (strategy == baseline || is_subject(strategy)) return false;
  return against.empty() || std::find(against.begin(), against.end(), strategy) != against.end();
}

std::string Setting::value(const std::string& column) const {
  for (std::size_t i = 0; i < kKeyColumns.size(); ++i)
    if (kKeyColumns[i] == column) return values[i];
  throw Error(fmt::format("campaign: no key column \"{}\"", column));
}

std::string join_key(const std::vector<std::string>& values) {
  std::string key;
  for (std::size_t i = 0; i < values.size(); ++i) key += (i ? "," : "") + values[i];
  return key;
}

namespace {
using nlohmann::json;

const std::set<std::string> kSpecKeys = {
    "spec_version", "description", "results", "mode", "strategies", "virtual_load", "integer", "estimates",
    "platforms", "nodes", "topologies", "initial", "ratios", "seeds", "load_per_node", "iterations", "time_limit",
    "time_limit_tau", "min_comp_iter", "min_lb_iter", "timeout_seconds", "lb_phase", "coalesce_data", "balance",
    "balancer", "metrics_at", "imbalance_integral", "strategy_params", "compare"};

// x as a T when it is a whole number (an integer, or a whole float up to 2^53) within T's range.
template <class T>
std::optional<T> whole_number(const json& x) {
  const std::optional<std::int64_t> i = io::detail::whole_number(x);
  return i && std::in_range<T>(*i) ? std::optional<T>(static_cast<T>(*i)) : std::nullopt;
}

struct Reader {
  const std::string& path;
  const json& spec;

  [[noreturn]] void fail(const std::string& key, const json& value, const std::string& expected) const {
    throw Error(fmt::format("campaign \"{}\": \"{}\" = {}; expected {}", path, key, io::detail::excerpt(value), expected));
  }

  // A list (or a single value) of T, never empty; `fallback` when the key is absent.
  template <class T>
  std::vector<T> list(const std::string& key, std::vector<T> fallback, const std::string& expected) const {
    if (!spec.contains(key)) return fallback;
    const json& v = spec.at(key);
    std::vector<T> out;
    try {
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // Whole numbers within T's range only (JSON's get<int>() of 1e126 is undefined behaviour).
        for (const json& x : v.is_array() ? v : json::array({v})) {
          const std::optional<T> whole = whole_number<T>(x);
          if (!whole) fail(key, v, "a non-empty list of " + expected);
          out.push_back(*whole);
        }
      } else {
        out = v.is_array() ? v.get<std::vector<T>>() : std::vector<T>{v.get<T>()};
      }
    } catch (const Error&) {
      throw;
    } catch (const std::exception&) {
      fail(key, v, "a non-empty list of " + expected);
    }
    if (out.empty()) fail(key, v, "a non-empty list of " + expected);
    return out;
  }

  template <class T, class Check>
  std::vector<T> checked(const std::string& key, std::vector<T> fallback, const std::string& expected,
                         Check ok) const {
    auto out = list<T>(key, fallback, expected);
    for (const T& x : out)
      if (!ok(x)) fail(key, json(x), expected);
    return out;
  }
};

// A file named in the spec; its name becomes a CSV cell, so no commas, quotes or line breaks.
bool is_file(const std::string& s) {
  std::error_code ec;  // a name the system refuses (too long, ...) is not a file
  return s.find_first_of(",\"\n\r") == std::string::npos && std::filesystem::is_regular_file(s, ec);
}

std::string num(double x) { return fmt::format("{}", x); }

// A "strategies" entry: NAME (a registered strategy or plugin:PATH) or NAME:K, K the strategy's
// parameter k (the study's "besteffort:2"); its other parameters from "strategy_params".
struct SpecStrategy {
  std::string name, k = "1";
  std::vector<std::string> params;  // NAME=VALUE for --param
  std::string variant;              // the "params" key cell: parameters other than k away from their defaults
  std::vector<std::string> names;   // every parameter of the rule but k, in declaration order
  bool unloaded = false;            // a plug-in not loaded: `given` are its parameters as given, k aside
  std::vector<std::string> given;
};

bool is_plugin(const std::string& entry) { return entry.rfind("plugin:", 0) == 0; }

// A plug-in entry described without loading the plug-in: its parameters as given (a run's values and
// text: numbers, and flags as 1 or 0).
SpecStrategy unloaded_strategy(const std::string& entry, const json& params) {
  SpecStrategy out;
  out.name = entry;
  out.unloaded = true;
  for (const auto& [name, value] : params.items()) {
    const std::string text = value.is_boolean() ? (value.get<bool>() ? "1" : "0") : num(value.get<double>());
    if (name == "k") {
      out.k = text;
      continue;
    }
    out.given.push_back(name + "=" + text);
    out.params.push_back(name + "=" + text);
    out.variant += (out.variant.empty() ? "" : ";") + out.given.back();
  }
  return out;
}

SpecStrategy spec_strategy(const std::string& entry, const json& params, bool load_plugins) {
  if (!load_plugins && is_plugin(entry)) return unloaded_strategy(entry, params);
  SpecStrategy out;
  out.name = entry;
  const auto colon = entry.find(':');
  if (colon != std::string::npos && entry.rfind("plugin:", 0) != 0) {
    out.name = entry.substr(0, colon);
    const std::string value = entry.substr(colon + 1);
    diffusion::Strategy probe(out.name);
    if (!probe.has("k"))
      throw Error(fmt::format("strategy {} has no parameter k; expected NAME:K only for a strategy with k", out.name));
    probe.set("k=" + value);
    out.k = num(probe.param("k"));
  }
  diffusion::Strategy strategy(out.name, std::stod(out.k));
  for (const auto& [name, value] : params.items()) {
    const std::string text = value.is_boolean() ? (value.get<bool>() ? "true" : "false") : num(value.get<double>());
    if (name == "k" && strategy.has("k")) {
      if (colon != std::string::npos && entry.rfind("plugin:", 0) != 0)
        throw Error(fmt::format("k given twice (NAME:K and a parameter k); expected one"));
      strategy.set("k=" + text);  // a boolean is refused naming the parameter, as for any number
      out.k = num(strategy.param("k"));
      continue;
    }
    strategy.set(name + "=" + text);
    out.params.push_back(name + "=" + text);
  }
  const auto& declared = strategy.rule().params;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    if (declared[i].name == "k") continue;
    out.names.push_back(declared[i].name);
    if (strategy.params()[i] != declared[i].default_value)
      out.variant += (out.variant.empty() ? "" : ";") + declared[i].name + "=" + num(strategy.params()[i]);
  }
  return out;
}

// A "strategies" entry: "NAME", "NAME:K" or {"strategy": "NAME" or "NAME:K", "params": {...}}, the last
// form to list one strategy several times with other parameters. `id` names it in messages and, for a
// string, in "strategy_params" and "compare".
struct SpecEntry {
  std::string id, text;  // text: the "strategy" string
  json params = json::object();
};

// A spec_version is written in every row of the results: a label, not a document.
constexpr std::size_t kMaxSpecVersionChars = 200;

std::string read_version(const Reader& r) {
  if (!r.spec.contains("spec_version"))
    throw Error(fmt::format("campaign \"{}\": no \"spec_version\"; expected a version string recorded in every "
                            "results row (change it when the runs' meaning changes)",
                            r.path));
  const json& v = r.spec.at("spec_version");
  std::string s = v.is_string() ? v.get<std::string>() : v.is_number_integer() ? v.dump() : std::string();
  const bool control = std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  if (s.empty() || s.size() > kMaxSpecVersionChars || control || s.find_first_of(",\"") != std::string::npos)
    r.fail("spec_version", v,
           fmt::format("a non-empty string of at most {} characters without commas, quotes or control characters",
                       kMaxSpecVersionChars));
  return s;
}
}  // namespace

Spec read_spec(const std::string& path, bool load_plugins) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(fmt::format("campaign \"{}\": {}; expected a JSON specification", path, why));
  const json spec = io::detail::parse_json_object(io::detail::read_text_file(path, "campaign spec"),
                                                  fmt::format("campaign \"{}\"", path));
  for (const auto& [key, value] : spec.items())
    if (!kSpecKeys.count(key)) {
      std::string known;
      for (const auto& k : kSpecKeys) known += (known.empty() ? "" : ", ") + k;
      throw Error(fmt::format("campaign \"{}\": unknown key {}; expected one of {}", path, io::detail::excerpt(key), known));
    }
  const Reader r{path, spec};
  Spec s;
  s.path = path;
  s.version = read_version(r);
  // Balancing phases of every run (docs/simulation.md, "Balancing phase"). Not a key column (every
  // results file keeps its columns): a staggered spec records its rows under its own version,
  // "VERSION+staggered", so they can never mix with aligned ones in one file.
  if (spec.contains("lb_phase")) {
    const json& phase = spec.at("lb_phase");
    if (!phase.is_string() || (phase.get<std::string>() != "aligned" && phase.get<std::string>() != "staggered"))
      r.fail("lb_phase", phase, "\"aligned\" or \"staggered\"");
    s.lb_phase = phase.get<std::string>();
    if (s.lb_phase == "staggered") s.version += "+staggered";
  }
  // Coalesced data (docs/simulation.md, "Coalesced data"), likewise: "VERSION+coalesced".
  if (spec.contains("coalesce_data")) {
    const json& coalesce = spec.at("coalesce_data");
    if (!coalesce.is_boolean()) r.fail("coalesce_data", coalesce, "true or false");
    s.coalesce_data = coalesce.get<bool>();
    if (s.coalesce_data) s.version += "+coalesced";
  }
  // What the strategies equalise (docs/simulation.md, "Balance by time"): time, the one default
  // (diffusion::kDefaultBalance), unless the spec says "load" (the papers' model, every committed row of
  // the study). Rows balanced by time carry "VERSION+time": a results file of one refuses rows of the other.
  if (spec.contains("balance")) {
    const json& balance = spec.at("balance");
    if (!balance.is_string() || (balance.get<std::string>() != "load" && balance.get<std::string>() != "time"))
      r.fail("balance", balance, "\"load\" or \"time\"");
    s.balance = balance.get<std::string>();
  }
  if (s.balance == "time") s.version += "+time";
  // What moves the load (docs/simulation.md, "Global steps"), likewise: "VERSION+global" or
  // "VERSION+hybrid"; "diffusion" (the default) keeps the version and today's rows.
  if (spec.contains("balancer")) {
    const json& balancer = spec.at("balancer");
    const std::string name = balancer.is_string() ? balancer.get<std::string>() : std::string();
    if (name != "diffusion" && name != "global" && name != "hybrid")
      r.fail("balancer", balancer, "\"diffusion\", \"global\" or \"hybrid\"");
    s.balancer = name;
    if (s.balancer != "diffusion") s.version += "+" + s.balancer;
  }
  if (spec.contains("mode") && !spec.at("mode").is_string())
    r.fail("mode", spec.at("mode"), "convergence, fixed_duration or short");
  s.mode = spec.value("mode", std::string("convergence"));
  if (s.mode != "convergence" && s.mode != "fixed_duration" && s.mode != "short")
    r.fail("mode", spec.at("mode"), "convergence, fixed_duration or short");
  s.results = path + ".csv";
  if (spec.contains("results")) {
    if (!spec.at("results").is_string() || spec.at("results").get<std::string>().empty())
      r.fail("results", spec.at("results"), "the path of the results CSV");
    s.results = spec.at("results").get<std::string>();
  }
  if (spec.contains("timeout_seconds")) {
    const json& t = spec.at("timeout_seconds");
    if (!t.is_number() || !(t.get<double>() >= 0)) r.fail("timeout_seconds", t, "a non-negative number of seconds");
    s.timeout = t.get<double>();
  }
  // Imbalance over time as results (diffusion/imbalance_curve.hpp): columns of their own, not keys.
  std::vector<std::string> metric_args;
  if (spec.contains("metrics_at")) {
    const auto dates = r.checked<double>("metrics_at", {}, "simulated dates of at least 0 s, at most 100 of them",
                                         [](double d) { return d >= 0 && std::isfinite(d); });
    if (dates.size() > 100) r.fail("metrics_at", spec.at("metrics_at"), "at most 100 dates");
    std::string list;
    for (double d : dates) {
      for (const char* view : {"load", "time"}) {
        const std::string column = diffusion::imbalance_at_name(view, d);
        if (std::find(s.result_columns.begin(), s.result_columns.end(), column) != s.result_columns.end())
          r.fail("metrics_at", spec.at("metrics_at"), "distinct dates");
        s.result_columns.push_back(column);
      }
      list += (list.empty() ? "" : ",") + fmt::format("{}", d);
    }
    metric_args = {"--metrics-at", list};
  }
  if (spec.contains("imbalance_integral")) {
    const json& integral = spec.at("imbalance_integral");
    if (!integral.is_boolean()) r.fail("imbalance_integral", integral, "true or false");
    if (integral.get<bool>()) {
      for (const char* view : {"load", "time"}) s.result_columns.push_back(diffusion::imbalance_integral_name(view));
      metric_args.push_back("--imbalance-integral");
    }
  }
  if (s.balancer != "diffusion") s.result_columns.push_back("global_step_count");  // the steps taken, per run
  if (spec.contains("description") && !spec.at("description").is_string())
    r.fail("description", spec.at("description"), "a string");

  const std::string strategy_names =
      fmt::format("{}, plugin:PATH or NAME:K for a strategy with parameter k (K >= 1)", diffusion::builtin_names());
  std::vector<SpecEntry> entries;
  // A strategy's parameters: {"PARAMETER": VALUE}, every value a number or a boolean (`of`: the key,
  // `entry`: which strategy, in the message).
  const auto check_params = [&](const json& params, const std::string& of, const std::string& entry) {
    if (!params.is_object()) r.fail(of, params, "an object {\"PARAMETER\": VALUE}");
    for (const auto& [name, value] : params.items())
      if (!value.is_number() && !value.is_boolean())
        r.fail(of, value, fmt::format("a number or a boolean for parameter {}{}", name, entry.empty() ? "" : " of " + entry));
  };
  if (!spec.contains("strategies")) {
    for (const char* st : {"besteffort:1", "besteffort:2", "besteffort:4", "makhoul"}) entries.push_back({st, st});
  } else {
    const json& v = spec.at("strategies");
    const json list = v.is_array() ? v : json::array({v});
    if (list.empty()) r.fail("strategies", v, "a non-empty list of " + strategy_names);
    for (const json& x : list) {
      const auto plain = [&](const json& text) {
        if (!text.is_string() || text.get<std::string>().empty())
          r.fail("strategies", text, "a non-empty list of " + strategy_names);
        if (text.get<std::string>().find_first_of(",\"\n\r") != std::string::npos)
          r.fail("strategies", text,
                 "a strategy without commas, quotes or line breaks (it is a cell of the results file): give a "
                 "plug-in a path without them (a copy or a symbolic link)");
        return text.get<std::string>();
      };
      if (x.is_object()) {
        for (const auto& [key, value] : x.items())
          if (key != "strategy" && key != "params")
            r.fail("strategies", json(key), "entries {\"strategy\": NAME, \"params\": {\"PARAMETER\": VALUE}}");
        if (!x.contains("strategy")) r.fail("strategies", x, "a \"strategy\" in every object entry");
        SpecEntry e{io::detail::excerpt(x), plain(x.at("strategy"))};
        if (x.contains("params")) {
          check_params(x.at("params"), "strategies", "");
          e.params = x.at("params");
        }
        entries.push_back(std::move(e));
      } else {
        const std::string text = plain(x);
        entries.push_back({text, text});
      }
    }
  }
  // String entries' parameters from "strategy_params": {"ENTRY": {"NAME": VALUE, ...}}.
  if (spec.contains("strategy_params")) {
    const json& sp = spec.at("strategy_params");
    if (!sp.is_object()) r.fail("strategy_params", sp, "an object {\"STRATEGY\": {\"PARAMETER\": VALUE}}");
    for (const auto& [entry, params] : sp.items()) {
      const std::string id = entry;  // a structured binding cannot be captured (before C++20's clang 16)
      const auto named = std::find_if(entries.begin(), entries.end(),
                                      [&id](const SpecEntry& e) { return e.id == id && e.text == id; });
      if (named == entries.end()) r.fail("strategy_params", json(entry), "entries of \"strategies\"");
      check_params(params, "strategy_params", id);
      named->params = params;
    }
  }
  // The comparison of the summary: {"subject": [names], "against": [names], "baseline": name}, every
  // name a strategy of "strategies" (labels from the registry).
  if (spec.contains("compare")) {
    const json& cmp = spec.at("compare");
    if (!cmp.is_object()) r.fail("compare", cmp, "an object {\"subject\": [...], \"against\": [...], \"baseline\": ...}");
    std::set<std::string> names;
    for (const auto& e : entries)
      names.insert(e.text.rfind("plugin:", 0) == 0 ? e.text : e.text.substr(0, e.text.find(':')));
    const auto names_of = [&](const std::string& key) {
      std::vector<std::string> out;
      const json& v = cmp.at(key);
      if (!v.is_array() || v.empty()) r.fail("compare", v, fmt::format("\"{}\": a non-empty list of strategy names", key));
      for (const json& x : v) {
        if (!x.is_string() || !names.count(x.get<std::string>()))
          r.fail("compare", x, fmt::format("\"{}\": names of strategies listed in \"strategies\"", key));
        out.push_back(x.get<std::string>());
      }
      return out;
    };
    const auto labels = [load_plugins](const std::vector<std::string>& list) {
      std::string text;
      for (std::size_t i = 0; i < list.size(); ++i)
        text += (i == 0 ? "" : i + 1 == list.size() ? " and " : ", ") +
                (!load_plugins && is_plugin(list[i]) ? list[i] : diffusion::find_rule(list[i]).label);
      return text;
    };
    for (const auto& [key, value] : cmp.items())
      if (key != "subject" && key != "against" && key != "baseline") r.fail("compare", json(key), "subject, against or baseline");
    if (cmp.contains("subject")) s.compare.subject = names_of("subject");
    if (cmp.contains("baseline")) {
      const json& b = cmp.at("baseline");
      if (!b.is_string() || !names.count(b.get<std::string>()))
        r.fail("compare", b, "\"baseline\": the name of a strategy listed in \"strategies\"");
      s.compare.baseline = b.get<std::string>();
    }
    s.compare.against.clear();
    if (cmp.contains("against")) s.compare.against = names_of("against");
    // The groups are disjoint: a strategy in two of them would silently leave one.
    for (const std::string& name : s.compare.against)
      if (s.compare.is_subject(name)) r.fail("compare", json(name), "\"against\": strategies not in \"subject\"");
    if (cmp.contains("baseline") && (s.compare.is_subject(s.compare.baseline) ||
                                     std::find(s.compare.against.begin(), s.compare.against.end(),
                                               s.compare.baseline) != s.compare.against.end()))
      r.fail("compare", json(s.compare.baseline), "\"baseline\": a strategy in neither \"subject\" nor \"against\"");
    s.compare.subject_label = labels(s.compare.subject);
    s.compare.against_label = s.compare.against.empty() ? "the others" : labels(s.compare.against);
  }
  // Each entry's strategy (a plug-in is loaded and checked here, before any run, unless !load_plugins),
  // parameters and their result columns "param_NAME" (the values as run; empty for a strategy without
  // that parameter).
  std::vector<SpecStrategy> strategies;
  for (const auto& e : entries) try {
      strategies.push_back(spec_strategy(e.text, e.params, load_plugins));
      if (strategies.back().unloaded) continue;
      if (const diffusion::Rule& rule = diffusion::find_rule(strategies.back().name); !rule.identity.empty())
        s.plugins.emplace(rule.origin, rule.identity);
      for (const auto& name : strategies.back().names)
        if (std::find(s.param_columns.begin(), s.param_columns.end(), "param_" + name) == s.param_columns.end())
          s.param_columns.push_back("param_" + name);
    } catch (const Error& err) {
      r.fail("strategies", json(e.id), fmt::format("{} ({})", strategy_names, err.what()));
    }
  s.result_columns.insert(s.result_columns.begin(), s.param_columns.begin(), s.param_columns.end());
  const auto virt = r.list<bool>("virtual_load", {false, true}, "booleans");
  const auto integer = r.list<bool>("integer", {false, true}, "booleans");
  const auto estimates = r.checked<std::string>("estimates", {"accounted"}, "accounted or reported",
                                                [](const std::string& e) { return e == "accounted" || e == "reported"; });
  const auto platforms = r.checked<std::string>(
      "platforms", {"cluster", "grid"}, "cluster, grid, grid-real or an existing SimGrid XML file",
      [](const std::string& p) { return p == "cluster" || p == "grid" || p == "grid-real" || is_file(p); });
  const auto sizes = r.checked<int>("nodes", {16, 64, 256, 1024},
                                    fmt::format("node counts from 2 to {} (the simulator's largest)", sim::kMaxSimulatedNodes),
                                    [](int n) { return n >= 2 && n <= sim::kMaxSimulatedNodes; });
  const auto topologies = r.checked<std::string>(
      "topologies", {"line", "torus", "hypercube"}, diffusion::topology_help(),
      [](const std::string& t) { return diffusion::is_builtin_topology(t) || is_file(t); });
  const auto initials = r.checked<std::string>("initial", {"single", "random"},
                                               "single, random or an existing file of loads",
                                               [](const std::string& i) { return i == "single" || i == "random" || is_file(i); });
  const auto ratios = r.checked<double>("ratios", {10, 1, 0.1}, "positive ratios",
                                        [](double x) { return x > 0 && std::isfinite(x); });
  const auto seeds = r.checked<long long>("seeds", {1}, "non-negative seeds", [](long long x) { return x >= 0; });
  const auto loads = r.checked<double>("load_per_node", {1000}, "positive loads",
                                       [](double x) { return x > 0 && std::isfinite(x); });
  const auto iterations = r.checked<long long>("iterations", {2000}, "positive iteration counts",
                                               [](long long x) { return x >= 1 && x < kNeverConverge; });
  if (spec.contains("time_limit") && spec.contains("time_limit_tau"))
    throw Error(fmt::format("campaign \"{}\": both \"time_limit\" and \"time_limit_tau\"; expected one of them", path));
  const bool in_tau = spec.contains("time_limit_tau");
  const auto limits = r.checked<double>(in_tau ? "time_limit_tau" : "time_limit", {0},
                                        "non-negative durations (0: the simulator's default)",
                                        [](double x) { return x >= 0 && std::isfinite(x); });
  if (s.mode != "convergence")
    for (double l : limits)
      if (l <= 0)
        r.fail(in_tau ? "time_limit_tau" : "time_limit", json(l),
               fmt::format("positive durations in mode {} (the date at which runs end)", s.mode));
  const std::string shortest = diffusion::shortest_min_iteration_text();
  const auto min_comp = r.checked<double>(
      "min_comp_iter", {-1}, fmt::format("durations of at least {} s (negative: tau/10)", shortest),
      diffusion::valid_min_iteration);
  const auto min_lb = r.checked<double>("min_lb_iter", {-1},
                                        fmt::format("durations of at least {} s (negative: tau)", shortest),
                                        diffusion::valid_min_iteration);

  const std::size_t random_count = static_cast<std::size_t>(std::count(initials.begin(), initials.end(), "random"));
  // The matrix's size before it is built (a product of list lengths, saturated): one spec holds at
  // most kMaxSettings settings. Checked before any check of the lists' combinations (two lists of 65,536
  // ratios and loads were 2^32 checks, half a minute, before this refusal).
  std::size_t total = 1;
  for (std::size_t factor : {strategies.size(), virt.size(), integer.size(), estimates.size(), platforms.size(),
                             sizes.size(), topologies.size(),
                             initials.size() - random_count + random_count * seeds.size(), ratios.size(), loads.size(),
                             iterations.size(), limits.size(), min_comp.size(), min_lb.size()})
    total = factor != 0 && total > kMaxSettings / factor ? kMaxSettings + 1 : total * factor;
  if (total > kMaxSettings)
    throw Error(fmt::format("campaign \"{}\": more than {} settings; expected at most that many in one spec (split "
                            "the matrix)",
                            path, kMaxSettings));

  // The simulator's own bounds on tau and on the total work (simulate_diffusion refuses the run
  // otherwise), checked here so that a spec that cannot run is refused before any run. Files of
  // initial loads set their own average: checked when they run.
  if (std::any_of(initials.begin(), initials.end(), [](const std::string& i) { return !is_file(i); })) {
    const int most = *std::max_element(sizes.begin(), sizes.end());
    const long long longest = *std::max_element(iterations.begin(), iterations.end());
    for (double load : loads)
      for (double ratio : ratios)
        for (double limit : limits) try {
            const double tau = diffusion::tau_of(load, ratio);
            diffusion::check_run_scale(load * most, load, ratio,
                                       diffusion::time_limit_of(in_tau ? limit * tau : limit, longest, tau));
          } catch (const Error& e) {
            throw Error(fmt::format("campaign \"{}\": \"load_per_node\" {} with \"ratios\" {} on {} nodes: {}", path,
                                    load, ratio, most, e.what()));
          }
  }

  // Integer runs split whole units (make_initial_load refuses a fractional load per node with --integer):
  // refused here, before any run, rather than recorded as failed runs.
  if (std::find(integer.begin(), integer.end(), true) != integer.end())
    for (double load : loads)
      if (load != std::floor(load))
        r.fail("load_per_node", json(load), "whole loads when \"integer\" holds true (integer runs split whole units)");

  // Built-in topologies must fit every node count (hypercube: powers of 2, torus: not prime).
  for (const auto& t : topologies)
    for (int n : sizes)
      if (!is_file(t)) try {
          diffusion::make_topology(t, n);
        } catch (const std::exception& e) {
          throw Error(fmt::format("campaign \"{}\": \"topologies\" {} with \"nodes\" {}: {}", path, t, n, e.what()));
        }

  s.settings.reserve(total);
  for (const SpecStrategy& strategy : strategies)
    for (bool v : virt)
      for (bool in : integer)
        for (const auto& est : estimates)
          for (const auto& pf : platforms)
            for (int n : sizes)
              for (const auto& tp : topologies)
                for (const auto& init : initials)
                  for (double ratio : ratios)
                    for (std::size_t si = 0; si < (init == "random" ? seeds.size() : 1); ++si)
                      for (double load : loads)
                        for (long long it : iterations)
                          for (double limit : limits)
                            for (double mc : min_comp)
                              for (double ml : min_lb) {
                                const std::string& name = strategy.name;
                                const std::string& k = strategy.k;
                                const long long run_iterations = s.mode == "fixed_duration" ? kNeverConverge : it;
                                // tau: the time to compute the average load (docs/simulation.md).
                                const double seconds = in_tau ? limit * diffusion::tau_of(load, ratio) : limit;
                                Setting x;
                                x.nodes = n;
                                x.values = {s.version, s.mode, name, k, v ? "true" : "false", in ? "true" : "false",
                                            est, pf, std::to_string(n), tp, init, num(ratio),
                                            std::to_string(seeds[si]), num(load), std::to_string(run_iterations),
                                            num(seconds), num(mc), num(ml), strategy.variant};
                                x.args = {"--strategy", name, "--k", k, "--estimates", est, "--platform", pf,
                                          "--nodes", std::to_string(n), "--topology", tp, "--initial", init,
                                          "--ratio", num(ratio), "--seed", std::to_string(seeds[si]),
                                          "--load-per-node", num(load), "--iterations",
                                          std::to_string(run_iterations), "--time-limit", num(seconds),
                                          "--min-comp-iter=" + num(mc), "--min-lb-iter=" + num(ml), "--format",
                                          "json"};
                                if (s.lb_phase != "aligned") x.args.insert(x.args.end(), {"--lb-phase", s.lb_phase});
                                if (s.coalesce_data) x.args.push_back("--coalesce-data");
                                x.args.insert(x.args.end(), {"--balance", s.balance});  // whatever the simulator's default
                                if (s.balancer != "diffusion") x.args.insert(x.args.end(), {"--balancer", s.balancer});
                                for (const std::string& p : strategy.params) x.args.insert(x.args.end(), {"--param", p});
                                if (v) x.args.push_back("--virtual-load");
                                if (in) x.args.push_back("--integer");
                                x.args.insert(x.args.end(), metric_args.begin(), metric_args.end());
                                x.key = join_key(x.values);
                                x.unloaded_plugin = strategy.unloaded;
                                x.given_params = strategy.given;
                                s.settings.push_back(std::move(x));
                              }
  std::stable_sort(s.settings.begin(), s.settings.end(),
                   [](const Setting& a, const Setting& b) { return a.nodes > b.nodes; });
  std::set<std::string> keys;
  for (const auto& x : s.settings)
    if (!keys.insert(x.key).second)
      throw Error(fmt::format("campaign \"{}\": setting {} listed twice; expected distinct list values", path, x.key));
  return s;
}

}  // namespace hetlb::campaign
