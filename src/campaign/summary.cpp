// Per-configuration comparison of the strategy variants and the tables drawn from it.
#include "summary.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/csv.hpp"
#include "hetlb/diffusion/imbalance_curve.hpp"
#include "hetlb/output_path.hpp"

namespace hetlb::campaign {

namespace {
const std::set<std::string> kVariantColumns = {"spec_version", "strategy", "k", "virtual_load", "params"};

std::string variant_of(const Setting& s) {
  std::string v = s.value("strategy");
  if (v == "besteffort") v += " k=" + s.value("k");
  if (!s.value("params").empty()) v += " " + s.value("params");
  if (s.value("virtual_load") == "true") v += " +virtual";
  return v;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string capitalised(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string g(double x) { return std::isnan(x) ? "-" : fmt::format("{:.4g}", x); }

// `word` as a POSIX shell reads it back: as is when it has only characters no shell treats specially,
// else in single quotes (a quote inside as '\'').
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                             "0123456789_./:=,+-@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char ch : word) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

// Paired table: how often b is better than a, worse, equal, and which converged alone.
void print_pairs(std::ostream& out, const Comparison& c, const std::vector<Pair>& pairs, const std::string& a_name,
                 const std::string& b_name) {
  out << fmt::format("| ratio | pair | pairs | {0} better | {0} worse | equal | only {0} valid | only {1} valid | "
                     "neither | median {0}/{1} |\n|---|---|---|---|---|---|---|---|---|---|\n",
                     b_name, a_name);
  for (const auto& ratio : c.ratios) {
    std::vector<std::string> groups;
    for (const Pair& p : pairs)
      if (p.ratio == ratio && std::find(groups.begin(), groups.end(), p.group) == groups.end())
        groups.push_back(p.group);
    for (const auto& group : groups) {
      int n = 0, better = 0, worse = 0, equal = 0, only_b = 0, only_a = 0, neither = 0;
      std::vector<double> ratios;
      for (const Pair& p : pairs) {
        if (p.ratio != ratio || p.group != group) continue;
        ++n;
        if (p.a_ok && p.b_ok) {
          const bool b_better = c.lower_is_better ? p.b < p.a : p.b > p.a;
          if (p.a == p.b)
            ++equal;
          else
            ++(b_better ? better : worse);
          if (p.a != 0) ratios.push_back(p.b / p.a);
        } else if (p.b_ok) {
          ++only_b;
        } else if (p.a_ok) {
          ++only_a;
        } else {
          ++neither;
        }
      }
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", ratio, group, n, better, worse,
                         equal, only_b, only_a, neither, g(median(ratios)));
    }
  }
}
// A variant's wins (rank 1), complete configurations and rank sum at one ratio, over the
// configurations whose `column` is `value` (all of them when column is null).
struct Tally {
  int wins = 0, configs = 0;
  double ranks = 0;
};
Tally tally(const Comparison& c, const std::string& variant, const std::string& ratio, const char* column = nullptr,
            const std::string& value = "") {
  Tally t;
  for (const auto& conf : c.configurations) {
    if (!conf.complete || conf.ratio != ratio) continue;
    if (column && conf.entries.front().setting->value(column) != value) continue;
    for (const auto& e : conf.entries)
      if (e.variant == variant) {
        ++t.configs;
        t.wins += e.valid && e.rank == 1;
        t.ranks += e.rank;
      }
  }
  return t;
}

// Best effort's best variant against the best of the other balancing strategies (Makhoul, simple), in
// one complete configuration and virtual-load setting. The no-balancing baseline ("none") is a
// reference, not a competitor. be / other: null when no variant of that family is valid.
struct Duel {
  const Configuration* conf;
  bool virtual_load;
  const Entry* be;
  const Entry* other;
};

std::vector<Duel> duels(const Comparison& c) {
  std::vector<Duel> ds;
  for (const auto& conf : c.configurations) {
    if (!conf.complete) continue;
    for (const bool virt : {false, true}) {
      Duel d{&conf, virt, nullptr, nullptr};
      bool any_be = false, any_other = false;
      for (const auto& e : conf.entries) {
        const std::string& strategy = e.setting->value("strategy");
        if ((e.setting->value("virtual_load") == "true") != virt) continue;
        if (!c.groups.is_subject(strategy) && !c.groups.is_against(strategy)) continue;
        const bool is_be = c.groups.is_subject(strategy);
        (is_be ? any_be : any_other) = true;
        const Entry*& best = is_be ? d.be : d.other;
        if (e.valid && (!best || (c.lower_is_better ? e.value < best->value : e.value > best->value))) best = &e;
      }
      if (any_be && any_other) ds.push_back(d);
    }
  }
  return ds;
}

std::string topology_of(const Duel& d) { return d.conf->entries.front().setting->value("topology"); }

// Relative difference of two valid results, against best effort's.
double gap(const Entry& be, const Entry& other) {
  return std::abs(be.value - other.value) / std::max(std::abs(be.value), 1e-300);
}

// Differences within kCounterExampleMargin are ties in effect (e.g. simple and best effort on a line).
enum class DuelOutcome {
  kBestEffortFirst,
  kWithinMargin,
  kOthersFirst,
  kOnlyBestEffortValid,
  kOnlyOthersValid,
  kNoneValid
};
DuelOutcome outcome(const Comparison& c, const Duel& d) {
  if (!d.be) return d.other ? DuelOutcome::kOnlyOthersValid : DuelOutcome::kNoneValid;
  if (!d.other) return DuelOutcome::kOnlyBestEffortValid;
  if (c.lower_is_better ? d.other->value >= d.be->value : d.other->value <= d.be->value)
    return DuelOutcome::kBestEffortFirst;
  return gap(*d.be, *d.other) <= kCounterExampleMargin ? DuelOutcome::kWithinMargin : DuelOutcome::kOthersFirst;
}

// Question 1 of the study in one table: per ratio and topology, how the duels end, and by how much best
// effort leads (the others' best over best effort's best, inverted when higher is better: above 1 when
// best effort is better).
void print_duels(std::ostream& out, const Comparison& c, const std::vector<Duel>& ds) {
  if (ds.empty()) return;
  std::vector<std::string> topologies;
  for (const Duel& d : ds) {
    if (std::find(topologies.begin(), topologies.end(), topology_of(d)) == topologies.end())
      topologies.push_back(topology_of(d));
  }
  if (topologies.size() > 1) topologies.push_back("all");
  const std::string& be = c.groups.subject_label;
  out << fmt::format(
      "\n{} against {}, per configuration and virtual-load setting (lead: {}; above 1 when "
      "{} is better; within {:g} %: a tie in effect)\n\n"
      "| ratio | topology | pairs | {} first | within {:g} % | others first | only {} valid | "
      "only others valid | none valid | median lead | lowest lead | highest lead |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n",
      capitalised(be), c.groups.against_label,
      c.lower_is_better ? fmt::format("the others' best {} over {}'s best", c.metric, be)
                        : fmt::format("{}'s best {} over the others' best", be, c.metric),
      be, 100.0 * kCounterExampleMargin, be, 100.0 * kCounterExampleMargin, be);
  for (const auto& ratio : c.ratios)
    for (const auto& topology : topologies) {
      std::map<DuelOutcome, int> n;
      std::vector<double> leads;
      int pairs = 0;
      for (const Duel& d : ds) {
        if (d.conf->ratio != ratio) continue;
        if (topology != "all" && topology_of(d) != topology) continue;
        ++pairs;
        ++n[outcome(c, d)];
        if (d.be && d.other && d.be->value != 0 && d.other->value != 0)
          leads.push_back(c.lower_is_better ? d.other->value / d.be->value : d.be->value / d.other->value);
      }
      if (!pairs) continue;
      const auto [lo, hi] = std::minmax_element(leads.begin(), leads.end());
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", ratio, topology, pairs,
                         n[DuelOutcome::kBestEffortFirst], n[DuelOutcome::kWithinMargin], n[DuelOutcome::kOthersFirst],
                         n[DuelOutcome::kOnlyBestEffortValid], n[DuelOutcome::kOnlyOthersValid], n[DuelOutcome::kNoneValid],
                         g(median(leads)), leads.empty() ? "-" : g(*lo), leads.empty() ? "-" : g(*hi));
    }
}
}  // namespace

const std::map<std::string, bool> kMetrics = {
    {"max_convergence_date", true}, {"avg_convergence_date", true}, {"avg_idle_time", true},
    {"data_transfer_amount", true}, {"data_messages", true},        {"ctrl_messages", true},
    {"load_spread_percent", true},  {"computed_load", false}};

bool is_imbalance_metric(const std::string& metric) {
  for (const char* view : {"load", "time"}) {
    if (metric == diffusion::imbalance_integral_name(view)) return true;
    const std::string at = diffusion::imbalance_at_name(view, 0);
    const std::string prefix = at.substr(0, at.size() - 1);  // "VIEW_imbalance_at_"
    if (metric.starts_with(prefix) && metric.size() > prefix.size()) try {
        std::size_t used = 0;
        const double date = std::stod(metric.substr(prefix.size()), &used);
        if (used == metric.size() - prefix.size() && metric == diffusion::imbalance_at_name(view, date)) return true;
      } catch (const std::exception&) {
      }
  }
  return false;
}

void check_metric(const std::string& metric) {
  if (kMetrics.count(metric) || is_imbalance_metric(metric)) return;
  std::string names;
  for (const auto& [name, low] : kMetrics) names += (names.empty() ? "" : ", ") + name;
  throw Error(fmt::format("--metric \"{}\": unknown; expected one of {}, or a column of the spec's \"metrics_at\" "
                          "(load_imbalance_at_D, time_imbalance_at_D) or \"imbalance_integral\" "
                          "(load_imbalance_integral, time_imbalance_integral)",
                          metric, names));
}

void check_metric(const std::string& metric, const Spec& spec) {
  check_metric(metric);
  if (!is_imbalance_metric(metric) ||
      std::find(spec.result_columns.begin(), spec.result_columns.end(), metric) != spec.result_columns.end())
    return;
  std::string asked;
  for (const auto& column : spec.result_columns)
    if (is_imbalance_metric(column)) asked += (asked.empty() ? "" : ", ") + column;
  throw Error(fmt::format("--metric \"{}\": campaign \"{}\" does not ask for it; expected {}", metric, spec.path,
                          asked.empty() ? "a date of the spec's \"metrics_at\" or its \"imbalance_integral\" (it has neither)"
                                        : "one of its columns " + asked));
}

Comparison compare(const Spec& spec, const std::map<std::string, Row>& rows, const std::string& metric) {
  Comparison c;
  const bool convergence = spec.mode != "fixed_duration";
  c.metric = !metric.empty() ? metric : convergence ? "max_convergence_date" : "computed_load";
  check_metric(c.metric, spec);
  c.lower_is_better = is_imbalance_metric(c.metric) || kMetrics.at(c.metric);
  c.groups = spec.compare;
  // The spread left when a run stops measures how close it came, converged or not (at the time limit);
  // so does the imbalance over time.
  c.unconverged_compare = convergence && (c.metric == "load_spread_percent" || is_imbalance_metric(c.metric));
  c.valid_means = convergence && !c.unconverged_compare ? "converged" : "finished";
  // Columns that vary in the spec name the configurations.
  std::vector<std::size_t> varying;
  for (std::size_t i = 0; i < kKeyColumns.size(); ++i) {
    if (kVariantColumns.count(kKeyColumns[i])) continue;
    std::set<std::string> values;
    for (const auto& s : spec.settings) values.insert(s.values[i]);
    if (values.size() > 1 || kKeyColumns[i] == "ratio") varying.push_back(i);
  }
  std::map<std::string, std::size_t> index;  // configuration key -> position
  for (const auto& s : spec.settings) {
    std::string key;
    for (std::size_t i = 0; i < kKeyColumns.size(); ++i)
      if (!kVariantColumns.count(kKeyColumns[i])) key += s.values[i] + ",";
    auto [it, fresh] = index.emplace(key, c.configurations.size());
    if (fresh) {
      Configuration conf;
      for (std::size_t i : varying) conf.label += (conf.label.empty() ? "" : " ") + kKeyColumns[i] + "=" + s.values[i];
      conf.ratio = s.value("ratio");
      c.configurations.push_back(std::move(conf));
      if (std::find(c.ratios.begin(), c.ratios.end(), s.value("ratio")) == c.ratios.end())
        c.ratios.push_back(s.value("ratio"));
    }
    Entry e;
    e.setting = &s;
    e.variant = variant_of(s);
    if (std::find(c.variants.begin(), c.variants.end(), e.variant) == c.variants.end())
      c.variants.push_back(e.variant);
    const auto row = rows.find(s.key);
    if (row == rows.end()) {
      e.status = "missing";
    } else {
      e.status = row->second.at("status");
      const double v = row->second.number(c.metric);
      const bool converged = row->second.at("converged") == "1";
      if (e.status == "ok" && !converged && convergence) e.status = "not converged";
      e.valid = (e.status == "ok" || (e.status == "not converged" && c.unconverged_compare)) && !std::isnan(v);
      e.value = v;
    }
    c.configurations[it->second].entries.push_back(e);
  }
  for (auto& conf : c.configurations) {
    int valid = 0;
    for (auto& e : conf.entries) {
      conf.complete = conf.complete && e.status != "missing";
      valid += e.valid;
    }
    for (auto& e : conf.entries) {
      if (!e.valid) {
        e.rank = valid + 1;
        continue;
      }
      e.rank = 1;
      for (const auto& o : conf.entries)
        if (o.valid && (c.lower_is_better ? o.value < e.value : o.value > e.value)) ++e.rank;
    }
  }
  return c;
}

std::vector<Pair> virtual_pairs(const Comparison& c) {
  std::vector<Pair> pairs;
  for (const auto& conf : c.configurations) {
    if (!conf.complete) continue;
    for (const auto& off : conf.entries) {
      if (off.setting->value("virtual_load") != "false") continue;
      for (const auto& on : conf.entries)
        if (on.setting->value("virtual_load") == "true" && on.setting->value("strategy") == off.setting->value("strategy") &&
            on.setting->value("k") == off.setting->value("k"))
          pairs.push_back({off.variant, conf.ratio, off.valid, on.valid, off.value, on.value});
    }
  }
  return pairs;
}

std::vector<Pair> duel_pairs(const Comparison& c) {
  std::vector<Pair> pairs;
  for (const Duel& d : duels(c))
    pairs.push_back({topology_of(d), d.conf->ratio, d.be != nullptr, d.other != nullptr, d.be ? d.be->value : NAN,
                     d.other ? d.other->value : NAN});
  return pairs;
}

std::vector<Pair> k_pairs(const Comparison& c) {
  std::vector<Pair> pairs;
  for (const auto& conf : c.configurations) {
    if (!conf.complete) continue;
    for (const auto& base : conf.entries) {
      if (base.setting->value("strategy") != "besteffort") continue;
      const double k0 = std::stod(base.setting->value("k"));
      bool smallest = true;
      for (const auto& o : conf.entries)
        if (o.setting->value("strategy") == "besteffort" && std::stod(o.setting->value("k")) < k0) smallest = false;
      if (!smallest) continue;
      for (const auto& o : conf.entries)
        if (o.setting->value("strategy") == "besteffort" && o.setting->value("k") != base.setting->value("k") &&
            o.setting->value("virtual_load") == base.setting->value("virtual_load"))
          pairs.push_back({fmt::format("k={} vs k={}{}", o.setting->value("k"), base.setting->value("k"),
                                       base.setting->value("virtual_load") == "true" ? " +virtual" : ""),
                           conf.ratio, base.valid, o.valid, base.value, o.value});
    }
  }
  return pairs;
}

void print_summary(std::ostream& out, const Comparison& c) {
  const std::string better = c.lower_is_better ? "lowest" : "highest";
  int complete = 0;
  for (const auto& conf : c.configurations) complete += conf.complete;
  out << fmt::format("Compared metric: {} ({} is best{}), per configuration; {} of {} configurations complete.\n\n",
                     c.metric, better,
                     !c.unconverged_compare       ? ""
                     : is_imbalance_metric(c.metric) ? "; runs that did not converge compare too"
                                                     : "; runs that did not converge compare too, by the spread at the time limit",
                     complete, c.configurations.size());
  out << "Runs per variant\n\n| variant | runs | valid | not converged | timeout | failed | missing |\n"
         "|---|---|---|---|---|---|---|\n";
  for (const auto& v : c.variants) {
    std::map<std::string, int> n;
    int runs = 0, valid = 0;
    for (const auto& conf : c.configurations)
      for (const auto& e : conf.entries)
        if (e.variant == v) {
          ++n[e.status];
          runs += e.status != "missing";
          valid += e.valid;
        }
    out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", v, runs, valid, n["not converged"], n["timeout"],
                       n["failed"], n["missing"]);
  }
  out << "\nWins (rank 1, ties included) / complete configurations, and mean rank, per ratio\n\n| variant |";
  for (const auto& r : c.ratios) out << fmt::format(" ratio {} wins | ratio {} mean rank |", r, r);
  out << "\n|---|";
  for (std::size_t i = 0; i < c.ratios.size(); ++i) out << "---|---|";
  out << "\n";
  for (const auto& v : c.variants) {
    out << "| " << v << " |";
    for (const auto& r : c.ratios) {
      const Tally t = tally(c, v, r);
      out << fmt::format(" {}/{} | {} |", t.wins, t.configs, t.configs ? g(t.ranks / t.configs) : "-");
    }
    out << "\n";
  }
  // The same wins split by each parameter that varies (per ratio still): where a strategy wins.
  for (const char* column : {"nodes", "platform", "topology", "initial", "integer"}) {
    std::vector<std::string> values;
    for (const auto& conf : c.configurations)
      if (!conf.entries.empty()) {
        const std::string v = conf.entries.front().setting->value(column);
        if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
      }
    if (values.size() < 2) continue;
    out << fmt::format("\nWins / complete configurations, per ratio and {}\n\n| variant |", column);
    for (const auto& r : c.ratios)
      for (const auto& v : values) out << fmt::format(" {} {}, ratio {} |", column, v, r);
    out << "\n|---|";
    for (std::size_t i = 0; i < c.ratios.size() * values.size(); ++i) out << "---|";
    out << "\n";
    for (const auto& variant : c.variants) {
      out << "| " << variant << " |";
      for (const auto& r : c.ratios)
        for (const auto& v : values) {
          const Tally t = tally(c, variant, r, column, v);
          out << (t.configs ? fmt::format(" {}/{} |", t.wins, t.configs) : std::string(" - |"));
        }
      out << "\n";
    }
  }
  const auto vp = virtual_pairs(c);
  if (!vp.empty()) {
    out << "\nVirtual load, paired (same configuration and strategy)\n\n";
    print_pairs(out, c, vp, "without", "with");
  }
  const auto kp = k_pairs(c);
  if (!kp.empty()) {
    out << "\nBest effort's k, paired (same configuration and virtual load; larger k against the smallest)\n\n";
    print_pairs(out, c, kp, "smallest k", "larger k");
  }
  const std::vector<Duel> ds = duels(c);
  print_duels(out, c, ds);
  // Counter-examples: a balancing strategy (Makhoul, simple) better than every best effort variant by
  // more than the margin, or valid where none of them is.
  std::vector<std::string> lines;
  std::size_t only_be = 0, near_ties = 0;
  for (const Duel& d : ds) {
    const DuelOutcome o = outcome(c, d);
    only_be += o == DuelOutcome::kOnlyBestEffortValid;
    near_ties += o == DuelOutcome::kWithinMargin;
    if (o != DuelOutcome::kOthersFirst && o != DuelOutcome::kOnlyOthersValid) continue;
    std::string command = "hetlb simulate diffusion";
    for (const auto& a : d.other->setting->args)
      if (a != "--format" && a != "json") command += " " + shell_word(a);
    // In a table cell a '|' ends the cell, even in code: escaped (GitHub's tables).
    for (std::size_t at = 0; (at = command.find('|', at)) != std::string::npos; at += 2) command.insert(at, "\\");
    lines.push_back(fmt::format("| {}{} | {} | {} | {} | {} | `{}` |", d.conf->label, d.virtual_load ? " virtual" : "",
                                d.other->variant, g(d.other->value),
                                d.be ? fmt::format("{} ({})", g(d.be->value), d.be->variant) : "none valid",
                                d.be ? fmt::format("{:.1f} %", 100.0 * gap(*d.be, *d.other)) : "-", command));
  }
  const std::string& be = c.groups.subject_label;
  out << fmt::format("\nOnly {} valid ({}) in {} of {} configurations (per virtual-load setting)\n", be,
                     c.valid_means, only_be, ds.size());
  out << fmt::format(
      "\nCounter-examples: configurations where {} is not the best by more than {:g} % ({} of {} compared; "
      "{} more within {:g} %)\n\n",
      be, 100.0 * kCounterExampleMargin, lines.size(), ds.size(), near_ties, 100.0 * kCounterExampleMargin);
  if (!lines.empty()) {
    out << "| configuration | best | its value | " << be << "'s best | difference | reproduce |\n|---|---|---|---|---|---|\n";
    for (const auto& l : lines) out << l << "\n";
  }
}

void write_ranks_csv(const Comparison& c, const std::string& path) {
  write_file("--ranks", path, [&](std::ostream& out) {
    out << "configuration,ratio,variant,status," << csv_cell(c.metric) << ",rank\n";
    for (const auto& conf : c.configurations)
      for (const auto& e : conf.entries)
        out << fmt::format("{},{},{},{},{},{}\n", csv_cell(conf.label), csv_cell(conf.ratio), csv_cell(e.variant),
                           csv_cell(e.status),
                           e.valid ? fmt::format("{}", e.value) : "", e.status == "missing" ? "" : std::to_string(e.rank));
  });
}

}  // namespace hetlb::campaign
