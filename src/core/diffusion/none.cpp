// "none": no balancing at all (the reference every strategy is measured against).
#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::diffusion {
namespace {
std::vector<double> decide_none(const Rule&, const NodeView& v) { return std::vector<double>(v.neighbours.size(), 0.0); }
}  // namespace

const Rule& none_rule() {
  static const Rule rule = [] {
    Rule r{"none", "none", "no balancing: every node keeps its load", {}, decide_none};
    r.unit_rules = false;
    return r;
  }();
  return rule;
}

}  // namespace hetlb::diffusion
