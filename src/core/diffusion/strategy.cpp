// Strategy names and dispatch (Couturier & Giersch, Sections 2-4; integer domain: see integer_transfers).
#include <algorithm>
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

std::vector<int> order_by_load(const std::vector<double>& neighbours) {
  std::vector<int> order(neighbours.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return neighbours[a] < neighbours[b]; });
  return order;
}

std::vector<double> balance(const Strategy& strategy, double load, const std::vector<double>& neighbours) {
  std::vector<double> out;
  switch (strategy.kind) {
    case StrategyKind::none: return std::vector<double>(neighbours.size(), 0.0);
    case StrategyKind::simple: out = simple_transfers(load, neighbours, strategy.residue_equal); break;
    case StrategyKind::makhoul: out = makhoul_transfers(load, neighbours); break;
    case StrategyKind::besteffort: out = best_effort_transfers(load, neighbours, strategy.k); break;
  }
  if (strategy.integer) return integer_transfers(load, neighbours, out);
  // Real load: a transfer below 1e-9 of the node's load is floating-point residue of an already
  // balanced neighbourhood, not a decision; dropping it lets converged loads stay constant.
  for (double& s : out)
    if (s < kNegligibleTransfer * load) s = 0;
  return out;
}

}  // namespace hetlb::diffusion
