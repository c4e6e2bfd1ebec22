// The registry of load-balancing strategies: every strategy the simulator, the MPI runtime and
// campaigns can run, built in or loaded from a plug-in, with its parameters and its label. Everything
// that lists, parses or describes strategies reads it (docs/adding-a-strategy.md).
#pragma once
#include <string>
#include <vector>

#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

enum class ParamType { real, integer, flag };

// A strategy parameter: values outside [min, max] (or not whole for integer, not 0/1 for flag) are
// refused before any run.
struct Param {
  std::string name;
  ParamType type = ParamType::real;
  double default_value = 0;
  double min = 0, max = 0;
  std::string help;
};

// What a node knows when it decides (the papers' model: its own load and its neighbours' last known
// loads; in the time view also their speeds).
struct NodeView {
  Moment at;                                 // who decides and when (messages; plug-ins see it)
  double load;                               // the node's own view
  double speed;                              // the node's own speed (1 in the load view)
  const std::vector<double>& neighbours;     // believed loads, one per neighbour
  const std::vector<double>& speeds;         // neighbour speed / node speed; empty: all equal (load view)
  const std::vector<double>& params;         // one per Rule::params, in order
};

struct Rule {
  std::string name;   // as given to --strategy and in spec files
  std::string label;  // as shown in tables and figures
  std::string summary;
  std::vector<Param> params;
  // Transfers, one per neighbour (each >= 0, sum <= load). Built-ins are trusted; a plug-in's
  // answer is checked by the caller of `decide`.
  std::vector<double> (*decide)(const Rule& rule, const NodeView& node) = nullptr;
  const void* context = nullptr;  // plug-ins: the loaded library's entry
  std::string origin = "built-in";  // "built-in" or the plug-in's path
  // A plug-in's identity, "plugin-" and the FNV-1a 64-bit hash of the library's bytes (16 hex digits),
  // added to the build identity of its results (a rebuilt plug-in is another build); empty: built in.
  std::string identity = "";
  bool trusted = true;
  bool unit_rules = true;  // integer load: DASUD's unit rules after the decision ("none": no balancing at all)

  // Index of a parameter; -1 if none.
  int param_index(const std::string& name) const;
};

// The built-in strategies, in the order listed (strategy_registry.cpp: one line per strategy).
const std::vector<const Rule*>& builtin_rules();
// "none, simple, makhoul, besteffort, ..." for messages and help texts.
std::string builtin_names();
// A built-in by name, or plugin:PATH loaded (once per process; strategy_plugin.cpp). hetlb::Error
// naming the name or the library and the problem otherwise.
const Rule& find_rule(const std::string& name);
// The identity a plug-in library at `path` would have now (Rule::identity: "plugin-" and the hash of its
// bytes); empty when the path names no readable regular file. What a campaign compares to the identity
// it started with, before each run.
std::string plugin_identity(const std::string& path);
// Checks a parameter value against its declaration; hetlb::Error naming strategy, parameter, value.
void check_param(const Rule& rule, const Param& param, double value);
// The value of "name=value" text for `param` (numbers; flags also true/false).
double parse_param_value(const Rule& rule, const Param& param, const std::string& text);
// The strategy of a command line or options: --strategy `name`, --k `k` (best effort's k, checked >= 1
// whatever the strategy; other than 1 refused for rules without k), --residue-equal (simple's flag; refused for
// other rules), --param NAME=VALUE each. hetlb::Error naming the first bad one.
Strategy strategy_of(const std::string& name, double k, bool residue_equal, const std::vector<std::string>& params,
                     bool integer);
// Help text of --strategy: the built-ins' names and plugin:PATH.
std::string strategy_help();

// "real", "integer" or "flag".
std::string to_string(ParamType type);

}  // namespace hetlb::diffusion
