// "best effort" (Couturier & Giersch, Section 3). Neighbours sorted by non-decreasing known load;
// S_i is the largest prefix whose loads are all below x_i and below the mean
//   xbar = (x_i + sum_{j in S_i} x_j) / (|S_i| + 1);
// each j in S_i is sent s_ij = (xbar - x_j) / k. With k = 1 the node and all of S_i end at xbar.
// Growing the prefix is monotone: once a neighbour is at or above the mean including it, every later
// (more loaded) one is too, so a single pass finds S_i.
//
// Time view (docs/simulation.md, "Balancing by time"): with speeds r_j relative to the node's own,
// neighbours are sorted by t_j = x_j / r_j, the mean is the common completion date
//   T = (x_i + sum_{j in S_i} x_j) / (1 + sum_{j in S_i} r_j),
// and s_ij = (T - t_j) r_j / k: with k = 1 the node and every j in S_i finish at T. T is a weighted
// mean of the dates, so the single pass stays exact. With r_j = 1 every operation is today's.
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/error.hpp"

#include <limits>

#include <fmt/format.h>

namespace hetlb::diffusion {

std::vector<double> best_effort_transfers(double load, const std::vector<double>& neighbours, double k,
                                          const std::vector<double>& speeds) {
  if (!(k >= 1.0)) throw Error(fmt::format("best effort: k = {}; expected k >= 1", k));
  std::vector<double> out(neighbours.size(), 0.0);
  std::vector<double> dates;
  if (!speeds.empty()) {
    dates.resize(neighbours.size());
    for (std::size_t j = 0; j < neighbours.size(); ++j) dates[j] = time_of(neighbours, speeds, j);
  }
  const std::vector<double>& t = speeds.empty() ? neighbours : dates;
  const std::vector<int> order = order_by_load(t);
  double sum = load, weight = 1.0;
  std::size_t selected = 0;
  for (int j : order) {
    if (!(t[j] < load)) break;
    const double mean = (sum + neighbours[j]) / (weight + speed_of(speeds, j));
    if (!(t[j] < mean)) break;
    sum += neighbours[j];
    weight += speed_of(speeds, j);
    ++selected;
  }
  if (selected == 0) return out;
  const double mean = sum / weight;
  for (std::size_t p = 0; p < selected; ++p) {
    const int j = order[p];
    out[j] = speeds.empty() ? (mean - neighbours[j]) / k : (mean - t[j]) * speeds[j] / k;
  }
  return out;
}

}  // namespace hetlb::diffusion

namespace hetlb::diffusion {
namespace {
std::vector<double> decide_best_effort(const Rule&, const NodeView& v) {
  return best_effort_transfers(v.load, v.neighbours, v.params[0], v.speeds);
}
}  // namespace

const Rule& besteffort_rule() {
  static const Rule rule{"besteffort", "best effort",
                         "Couturier & Giersch's best effort: the lighter prefix brought to a common mean",
                         {{"k", ParamType::real, 1, 1, std::numeric_limits<double>::infinity(),
                           "each transfer is divided by k"}},
                         decide_best_effort};
  return rule;
}
}  // namespace hetlb::diffusion
