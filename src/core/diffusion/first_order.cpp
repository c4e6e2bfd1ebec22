// "first_order": the classic first-order diffusion scheme (Cybenko, JPDC 1989, with the uniform
// weight 1 / (deg + 1) of Boillat): every neighbour j lighter than the node gets
//   s_ij = (x_i - x_j) / (deg + 1),
// so the transfers sum to at most deg / (deg + 1) of the node's load.
//
// Time view (docs/simulation.md, "Balancing by time"), as in generalised diffusion on heterogeneous
// nodes (Elsaesser, Monien & Preis, 2002): the difference is taken in dates, t_i - t_j with
// t_j = x_j / r_j (r_j: j's speed relative to the node's), and converted to load units with the
// receiver's speed capped at the node's own, min(1, r_j):
//   s_ij = (t_i - t_j) min(1, r_j) / (deg + 1),
// so the sum still stays below deg / (deg + 1) of the load. With r_j = 1 every operation is the load
// rule's (t_j = x_j / 1.0 and the product by 1.0 are exact).
#include <algorithm>

#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::diffusion {
namespace {

std::vector<double> decide_first_order(const Rule&, const NodeView& v) {
  const std::vector<double>& nb = v.neighbours;
  std::vector<double> out(nb.size(), 0.0);
  const double parts = static_cast<double>(nb.size()) + 1.0;
  for (std::size_t j = 0; j < nb.size(); ++j) {
    if (v.speeds.empty()) {
      if (nb[j] < v.load) out[j] = (v.load - nb[j]) / parts;
      continue;
    }
    const double t = nb[j] / v.speeds[j];
    if (t < v.load) out[j] = (v.load - t) * std::min(1.0, v.speeds[j]) / parts;
  }
  return out;
}

}  // namespace

const Rule& first_order_rule() {
  static const Rule rule{"first_order", "first-order diffusion",
                         "every lighter neighbour j gets (x_i - x_j) / (deg + 1)", {}, decide_first_order};
  return rule;
}

}  // namespace hetlb::diffusion
