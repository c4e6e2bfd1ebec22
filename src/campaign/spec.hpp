// A campaign specification (JSON): the lists whose product is the matrix of diffusion settings, the
// run mode, the spec version recorded in every results row, and the per-run wall-clock timeout.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::campaign {

// Key columns of the results file, in order: every parameter of a run.
extern const std::vector<std::string> kKeyColumns;

// Settings above this count need --yes.
inline constexpr std::size_t kConfirmAbove = 1000;
// No spec expands to more settings than this (the matrix is built in memory).
inline constexpr std::size_t kMaxSettings = 100000;

// Fixed-duration runs never converge: the simulator is given this many iterations.
inline constexpr long long kNeverConverge = 1LL << 50;

struct Setting {
  std::vector<std::string> values;  // one per key column
  std::vector<std::string> args;    // arguments of `hetlb simulate diffusion`
  std::string key;                  // values joined by ','
  int nodes = 0;
  // A plug-in strategy read without loading it (read_spec for a report): its parameters as the spec
  // gives them (NAME=VALUE, k aside); its "params" cell is then taken from the results
  // (unloaded_plugins.hpp), its defaults being the plug-in's own.
  bool unloaded_plugin = false;
  std::vector<std::string> given_params;
  std::string value(const std::string& column) const;
  // The values of the key columns `keep` accepts, each followed by ',': a key of settings alike.
  template <typename Keep>
  std::string key_of(Keep keep) const {
    std::string k;
    for (std::size_t c = 0; c < values.size(); ++c)
      if (keep(kKeyColumns[c])) k += values[c] + ",";
    return k;
  }
};

// The comparison a summary draws (spec key "compare"): the subject strategies' best variant against
// the best of the others, the baseline a reference only. The default is the study's: best effort
// against Makhoul and simple (and any other strategy), "none" the baseline.
struct CompareGroups {
  std::vector<std::string> subject{"besteffort"};  // strategy names
  std::vector<std::string> against;                 // empty: every strategy neither subject nor baseline
  std::string baseline = "none";
  std::string subject_label = "best effort", against_label = "Makhoul and simple";
  bool is_subject(const std::string& strategy) const;
  bool is_against(const std::string& strategy) const;
};

struct Spec {
  std::string path, version, mode, results;
  std::string lb_phase = "aligned";  // "staggered": version gets "+staggered", runs --lb-phase staggered
  bool coalesce_data = false;        // true: version gets "+coalesced", runs --coalesce-data
  std::string balance = diffusion::to_string(diffusion::kDefaultBalance);  // "time": version gets "+time"
  // "global" or "hybrid": version gets "+global" or "+hybrid", runs --balancer, and the rows get the
  // result column "global_step_count" (docs/simulation.md, "Global steps").
  std::string balancer = "diffusion";
  CompareGroups compare;
  double timeout = 0;  // wall seconds per run, 0: none
  // Result columns the spec asks for beyond the fixed ones (appended to the rows, not keys): the load
  // and time imbalance at the dates of "metrics_at", their integrals with "imbalance_integral".
  // The strategies' parameters but k, one column each ("param_NAME", first in result_columns): the value
  // as run, empty for a strategy without that parameter.
  std::vector<std::string> result_columns, param_columns;
  std::vector<Setting> settings;  // longest first (most nodes first), then in spec order
  // The spec's plug-ins by path (Rule::origin, the PATH of "plugin:PATH") and their identities
  // (diffusion::Rule::identity) as the spec was read: their rows' build is the simulator's followed by
  // "+IDENTITY", and a campaign runs them only while the library still has that identity. Empty for a
  // report (no plug-in loaded).
  std::map<std::string, std::string> plugins;
};

// Reads and checks the spec; throws hetlb::Error with one line naming the file, key and value.
// Plug-ins are loaded (their code runs) and checked, unless `load_plugins` is false (a report, which
// runs nothing): their parameters are then taken as given, their label is their name "plugin:PATH"
// and their settings are Setting::unloaded_plugin.
Spec read_spec(const std::string& path, bool load_plugins = true);

// Joins values with ',' (the results key).
std::string join_key(const std::vector<std::string>& values);

}  // namespace hetlb::campaign
