// The registry of built-in strategies and the checks of their parameters. Adding a built-in: its
// own file defining `const Rule& NAME_rule()` and one line in HETLB_BUILTIN_STRATEGIES below
// (docs/adding-a-strategy.md).
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/error.hpp"

// One line per built-in strategy, in the order they are listed.
#define HETLB_BUILTIN_STRATEGIES(X) \
  X(none)                           \
  X(simple)                         \
  X(makhoul)                        \
  X(besteffort)                     \
  X(first_order)

namespace hetlb::diffusion {

#define HETLB_DECLARE_RULE(name) const Rule& name##_rule();
HETLB_BUILTIN_STRATEGIES(HETLB_DECLARE_RULE)
#undef HETLB_DECLARE_RULE

const std::vector<const Rule*>& builtin_rules() {
#define HETLB_LIST_RULE(name) &name##_rule(),
  static const std::vector<const Rule*> rules{HETLB_BUILTIN_STRATEGIES(HETLB_LIST_RULE)};
#undef HETLB_LIST_RULE
  return rules;
}

std::string builtin_names() {
  std::string names;
  for (const Rule* r : builtin_rules()) names += (names.empty() ? "" : ", ") + r->name;
  return names;
}

int Rule::param_index(const std::string& param) const {
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i].name == param) return static_cast<int>(i);
  return -1;
}

std::string to_string(ParamType type) {
  switch (type) {
    case ParamType::real: return "real";
    case ParamType::integer: return "integer";
    case ParamType::flag: return "flag";
  }
  return "?";
}

namespace {
std::string bound(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}
}  // namespace

void check_param(const Rule& rule, const Param& param, double value) {
  const auto fail = [&](const std::string& expected) {
    throw Error(fmt::format("strategy {}: parameter {} = {}; expected {}", rule.name, param.name, value, expected));
  };
  if (param.type == ParamType::flag) {
    if (value != 0 && value != 1) fail("a flag (0/1, false/true)");
    return;
  }
  const std::string range = fmt::format("[{}, {}]", bound(param.min), bound(param.max));
  if (!std::isfinite(value) || !(value >= param.min && value <= param.max))
    fail(fmt::format("a finite {} number in {}", param.type == ParamType::integer ? "whole" : "real", range));
  if (param.type == ParamType::integer && value != std::floor(value)) fail(fmt::format("a whole number in {}", range));
}

double parse_param_value(const Rule& rule, const Param& param, const std::string& text) {
  if (param.type == ParamType::flag) {
    if (text == "true" || text == "1") return 1;
    if (text == "false" || text == "0") return 0;
  } else {
    try {
      std::size_t used = 0;
      const double v = std::stod(text, &used);
      if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
  }
  throw Error(fmt::format("strategy {}: parameter {} = \"{}\"; expected {}", rule.name, param.name, text,
                          param.type == ParamType::flag ? "true or false" : "a number"));
}

Strategy strategy_of(const std::string& name, double k, bool residue_equal, const std::vector<std::string>& params,
                     bool integer) {
  if (!(k >= 1) || !std::isfinite(k)) throw Error(fmt::format("--k {}: expected a finite k >= 1", k));
  Strategy s(name, k, integer);
  if (k != 1 && !s.has("k"))
    throw Error(fmt::format("--k {}: strategy {} has no parameter k; expected --k only for a strategy with k "
                            "(hetlb strategies lists them)",
                            k, s.name()));
  if (residue_equal) {
    if (!s.has("residue_equal"))
      throw Error(fmt::format("--residue-equal: applies to --strategy simple only, not {}", s.name()));
    s.set("residue_equal", 1);
  }
  // Each parameter once: a second value (or one also set by --k / --residue-equal) is refused, never
  // silently preferred.
  std::map<std::string, std::string> given;
  if (k != 1) given["k"] = fmt::format("--k {}", k);
  if (residue_equal) given["residue_equal"] = "--residue-equal";
  for (const std::string& p : params) {
    const std::string param = p.substr(0, p.find('='));
    if (const auto it = given.find(param); it != given.end() && p.find('=') != std::string::npos && !param.empty())
      throw Error(fmt::format("strategy {}: parameter {} given twice ({} and {}); expected it once", s.name(), param,
                              it->second, p));
    given[param] = p;
    s.set(p);
  }
  return s;
}

std::string strategy_help() {
  return builtin_names() + ", or plugin:PATH (a shared library built against hetlb/strategy_plugin.h); hetlb strategies lists them";
}

const Rule& find_builtin_or_plugin(const std::string& name);  // strategy_plugin.cpp

const Rule& find_rule(const std::string& name) {
  for (const Rule* r : builtin_rules())
    if (r->name == name) return *r;
  return find_builtin_or_plugin(name);
}

}  // namespace hetlb::diffusion
