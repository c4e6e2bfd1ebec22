// A strategy as run (a registered rule and its parameters) and the dispatch of every decision
// (Couturier & Giersch, Sections 2-4; integer domain: see integer_transfers).
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {

Strategy::Strategy() : Strategy(std::string("besteffort")) {}

Strategy::Strategy(const std::string& name, double k, bool integer_load) : Strategy(find_rule(name)) {
  integer = integer_load;
  if (has("k")) set("k", k);
}

Strategy::Strategy(const Rule& rule) : rule_(&rule) {
  for (const Param& p : rule.params) params_.push_back(p.default_value);
}

const std::string& Strategy::name() const { return rule_->name; }

std::string Strategy::describe() const {
  std::string text = rule_->name;
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const Param& p = rule_->params[i];
    if (p.type == ParamType::flag) {
      if (params_[i] != 0) text += " " + p.name;
    } else {
      text += fmt::format(" {}={}", p.name, params_[i]);
    }
  }
  return text;
}

bool Strategy::has(const std::string& param) const { return rule_->param_index(param) >= 0; }

double Strategy::param(const std::string& param) const {
  const int i = rule_->param_index(param);
  if (i < 0) throw Error(fmt::format("strategy {}: no parameter \"{}\"", rule_->name, param));
  return params_[i];
}

void Strategy::set(const std::string& param, double value) {
  const int i = rule_->param_index(param);
  if (i < 0) {
    std::string known;
    for (const Param& p : rule_->params) known += (known.empty() ? "" : ", ") + p.name;
    throw Error(fmt::format("strategy {}: unknown parameter \"{}\"; expected {}", rule_->name, param,
                            known.empty() ? "none (it takes no parameter)" : known));
  }
  check_param(*rule_, rule_->params[i], value);
  params_[i] = value;
}

void Strategy::set(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(fmt::format("strategy {}: parameter \"{}\"; expected name=value", rule_->name, assignment));
  const std::string param = assignment.substr(0, eq);
  const int i = rule_->param_index(param);
  if (i < 0) set(param, 0.0);  // throws: unknown parameter
  set(param, parse_param_value(*rule_, rule_->params[i], assignment.substr(eq + 1)));
}

Balance parse_balance(const std::string& name) {
  if (name == "load") return Balance::load;
  if (name == "time") return Balance::time;
  throw Error(fmt::format("balance \"{}\": unknown; expected load or time", name));
}

std::string to_string(Balance balance) { return balance == Balance::time ? "time" : "load"; }

void check_speed(double speed, const std::string& what) {
  if (!(speed > 0) || !std::isfinite(speed))
    throw Error(fmt::format("{} = {}: expected a finite speed > 0", what, speed));
}

std::vector<int> order_by_load(const std::vector<double>& neighbours) {
  std::vector<int> order(neighbours.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return neighbours[a] < neighbours[b]; });
  return order;
}

namespace {

// A plug-in's transfers must be a list a node can carry out: one per neighbour, each finite and
// >= 0, their sum within the node's load. Never clamped: the run ends with this error.
void check_untrusted(const Rule& rule, const NodeView& v, const std::vector<double>& out) {
  const auto fail = [&](const std::string& what) {
    throw Error(fmt::format("strategy plug-in {}: node {} at date {:.17g}: {}; expected finite transfers >= 0 "
                            "summing to at most the node's load",
                            rule.origin, v.at.node, v.at.date, what));
  };
  if (out.size() != v.neighbours.size())
    fail(fmt::format("{} transfers for {} neighbours", out.size(), v.neighbours.size()));
  double sum = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    if (!std::isfinite(out[j]) || out[j] < 0) fail(fmt::format("transfer to neighbour {} = {}", j, out[j]));
    sum += out[j];
  }
  if (sum > v.load) fail(fmt::format("transfers sum to {:.17g}, more than the load {:.17g}", sum, v.load));
}

// The dispatch of balance() and balance_time(); `speeds` relative to the node's own, empty if equal.
std::vector<double> decide(const Strategy& strategy, double load, double speed, const std::vector<double>& neighbours,
                           const std::vector<double>& speeds, Moment at) {
  const Rule& rule = strategy.rule();
  const NodeView view{at, load, speed, neighbours, speeds, strategy.params()};
  std::vector<double> out = rule.decide(rule, view);
  if (!rule.trusted) check_untrusted(rule, view, out);
  if (strategy.integer) return rule.unit_rules ? integer_transfers(load, neighbours, out, speeds) : out;
  // Real load: a transfer below 1e-9 of the node's load is floating-point residue of an already
  // balanced neighbourhood, not a decision; dropping it lets converged loads stay constant.
  for (double& s : out)
    if (s < kNegligibleTransfer * load) s = 0;
  return out;
}

}  // namespace

std::vector<double> balance(const Strategy& strategy, double load, const std::vector<double>& neighbours, Moment at) {
  return decide(strategy, load, 1.0, neighbours, {}, at);
}

// Time view: the rules see each neighbour's speed relative to the node's (s_j / s_i, exactly 1.0 for
// equal speeds), so the node's own date is its load and every quantity stays in its load units.
std::vector<double> balance_time(const Strategy& strategy, double load, double speed,
                                 const std::vector<double>& neighbours, const std::vector<double>& neighbour_speeds,
                                 Moment at) {
  if (neighbour_speeds.size() != neighbours.size())
    throw Error(fmt::format("balance by time: {} neighbour speeds for {} neighbours", neighbour_speeds.size(),
                            neighbours.size()));
  check_speed(speed, "node speed");
  std::vector<double> relative(neighbours.size());
  for (std::size_t j = 0; j < neighbours.size(); ++j) {
    check_speed(neighbour_speeds[j], "neighbour speed");
    relative[j] = neighbour_speeds[j] / speed;
    check_speed(relative[j], "neighbour speed relative to the node's");
  }
  // Equal speeds: the load rules themselves (the time rules give the same numbers, and this keeps
  // every decision of the papers' model bit for bit).
  if (std::all_of(relative.begin(), relative.end(), [](double r) { return r == 1.0; }))
    return decide(strategy, load, speed, neighbours, {}, at);
  return decide(strategy, load, speed, neighbours, relative, at);
}

}  // namespace hetlb::diffusion
