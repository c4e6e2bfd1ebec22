// What a campaign answers, per configuration (every parameter but the strategy, k and virtual load;
// never averaged across ratios): the rank of every strategy variant, wins per ratio, the paired
// effects of virtual load and of k, runs that did not converge counted as such, and the
// configurations where best effort is not the best (counter-examples).
#pragma once
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "results_file.hpp"
#include "spec.hpp"

namespace hetlb::campaign {

struct Entry {
  const Setting* setting = nullptr;
  std::string variant;  // e.g. "besteffort k=2 +virtual"
  std::string status;   // ok, not converged, timeout, failed, missing
  bool valid = false;   // ok and (converged, or a fixed-duration run)
  double value = 0;     // the compared metric when valid
  int rank = 0;         // 1 = best; invalid entries rank after every valid one
};

struct Configuration {
  std::string label;  // the parameters that vary in the spec
  std::string ratio;
  std::vector<Entry> entries;
  bool complete = true;  // every variant has a row
};

struct Comparison {
  std::string metric;  // max_convergence_date, or computed_load in fixed-duration mode
  bool lower_is_better = true;
  bool unconverged_compare = false;  // runs that did not converge are valid (load_spread_percent)
  std::string valid_means = "converged";  // what a valid run did: converged, or finished (fixed duration)
  std::vector<Configuration> configurations;
  std::vector<std::string> variants, ratios;  // in spec order
  CompareGroups groups;                       // the spec's comparison (subject against the others)
};

// `metric` empty: the mode's (max_convergence_date, or computed_load in fixed-duration mode); else one
// of kMetrics. In the convergence modes a run that did not converge is valid only by
// load_spread_percent (the spread when the run stopped: at convergence, or at the time limit).
Comparison compare(const Spec& spec, const std::map<std::string, Row>& rows, const std::string& metric = "");

// The metrics a comparison can rank by, and whether lower is better.
extern const std::map<std::string, bool> kMetrics;

// The imbalance over time a spec may ask for (diffusion/imbalance_curve.hpp): lower is better.
bool is_imbalance_metric(const std::string& metric);

// Throws hetlb::Error naming the metric and the known ones unless it is in kMetrics or an imbalance metric.
void check_metric(const std::string& metric);
// The same, and an imbalance metric must be one of the spec's columns (its "metrics_at" dates, its
// "imbalance_integral"): another date has no values to rank.
void check_metric(const std::string& metric, const Spec& spec);

// A strategy beating best effort by at most this fraction is a tie, not a counter-example.
inline constexpr double kCounterExampleMargin = 0.01;

// Markdown tables on `out`.
void print_summary(std::ostream& out, const Comparison& c);

// One row per configuration and variant: configuration, variant, status, value, rank.
void write_ranks_csv(const Comparison& c, const std::string& path);

// Pairs (a, b) of runs in the same configuration: virtual load off/on for one strategy, or best
// effort's smallest k against another k (same virtual load). `group` names the pair's kind.
struct Pair {
  std::string group, ratio;
  bool a_ok, b_ok;  // valid (converged)
  double a, b;
};
std::vector<Pair> virtual_pairs(const Comparison& c);
std::vector<Pair> k_pairs(const Comparison& c);
// Per complete configuration and virtual-load setting, best effort's best variant (a) against the best
// of Makhoul and simple (b); `group` is the topology. Settings without both families give no pair.
std::vector<Pair> duel_pairs(const Comparison& c);

}  // namespace hetlb::campaign
