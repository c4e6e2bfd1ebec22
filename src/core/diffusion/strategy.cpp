// Strategy names and dispatch (Couturier & Giersch, Sections 2-4; integer domain: see integer_transfers).
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {

StrategyKind parse_strategy(const std::string& name) {
  if (name == "none") return StrategyKind::none;
  if (name == "simple") return StrategyKind::simple;
  if (name == "makhoul") return StrategyKind::makhoul;
  if (name == "besteffort") return StrategyKind::besteffort;
  throw Error(fmt::format("strategy \"{}\": unknown; expected none, simple, makhoul or besteffort", name));
}

std::string to_string(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::none: return "none";
    case StrategyKind::simple: return "simple";
    case StrategyKind::makhoul: return "makhoul";
    case StrategyKind::besteffort: return "besteffort";
  }
  return "?";
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

// The dispatch of balance() and balance_time(); `speeds` relative to the node's own, empty if equal.
std::vector<double> decide(const Strategy& strategy, double load, const std::vector<double>& neighbours,
                           const std::vector<double>& speeds) {
  std::vector<double> out;
  switch (strategy.kind) {
    case StrategyKind::none: return std::vector<double>(neighbours.size(), 0.0);
    case StrategyKind::simple: out = simple_transfers(load, neighbours, strategy.residue_equal, speeds); break;
    case StrategyKind::makhoul: out = makhoul_transfers(load, neighbours, speeds); break;
    case StrategyKind::besteffort: out = best_effort_transfers(load, neighbours, strategy.k, speeds); break;
  }
  if (strategy.integer) return integer_transfers(load, neighbours, out, speeds);
  // Real load: a transfer below 1e-9 of the node's load is floating-point residue of an already
  // balanced neighbourhood, not a decision; dropping it lets converged loads stay constant.
  for (double& s : out)
    if (s < kNegligibleTransfer * load) s = 0;
  return out;
}

}  // namespace

std::vector<double> balance(const Strategy& strategy, double load, const std::vector<double>& neighbours) {
  return decide(strategy, load, neighbours, {});
}

// Time view: the rules see each neighbour's speed relative to the node's (s_j / s_i, exactly 1.0 for
// equal speeds), so the node's own date is its load and every quantity stays in its load units.
std::vector<double> balance_time(const Strategy& strategy, double load, double speed,
                                 const std::vector<double>& neighbours, const std::vector<double>& neighbour_speeds) {
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
  return decide(strategy, load, neighbours, relative);
}

}  // namespace hetlb::diffusion
