// hetlb strategies [--format table|json] [--plugin PATH ...]: the registry of strategies (built-ins
// and the plug-ins named), with each strategy's parameters. Scripts read the list from its JSON.
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::cli {

namespace {

nlohmann::json bound(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;
}

nlohmann::json rule_json(const diffusion::Rule& r) {
  nlohmann::json params = nlohmann::json::array();
  for (const diffusion::Param& p : r.params)
    params.push_back({{"name", p.name},
                      {"type", diffusion::to_string(p.type)},
                      {"default", p.default_value},
                      {"min", bound(p.min)},
                      {"max", bound(p.max)},
                      {"help", p.help}});
  return {{"name", r.name}, {"label", r.label}, {"summary", r.summary}, {"origin", r.origin}, {"params", params}};
}

}  // namespace

void add_strategies_command(CLI::App& app) {
  auto format = std::make_shared<std::string>("table");
  auto plugins = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand("strategies", "List the load-balancing strategies and their parameters");
  sub->add_option("--format", *format, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  sub->add_option("--plugin", *plugins, "PATH of a strategy plug-in to list too (repeatable)")
      ->take_all()
      ->allow_extra_args(false);
  sub->callback([format, plugins] {
    std::vector<const diffusion::Rule*> rules = diffusion::builtin_rules();
    for (const std::string& p : *plugins) rules.push_back(&diffusion::find_rule("plugin:" + p));
    if (*format == "json") {
      nlohmann::json all = nlohmann::json::array();
      for (const diffusion::Rule* r : rules) all.push_back(rule_json(*r));
      std::cout << all.dump(2) << "\n";
      return;
    }
    for (const diffusion::Rule* r : rules) {
      std::cout << fmt::format("{:<12} {} ({}): {}\n", r->name, r->label, r->origin, r->summary);
      for (const diffusion::Param& p : r->params)
        std::cout << fmt::format("  --param {}=VALUE  {}, default {}, in [{}, {}]: {}\n", p.name,
                                 diffusion::to_string(p.type), p.default_value, p.min, p.max, p.help);
    }
  });
}

}  // namespace hetlb::cli
