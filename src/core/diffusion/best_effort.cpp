// "best effort" (Couturier & Giersch, Section 3). Neighbours sorted by non-decreasing known load;
// S_i is the largest prefix whose loads are all below x_i and below the mean
//   xbar = (x_i + sum_{j in S_i} x_j) / (|S_i| + 1);
// each j in S_i is sent s_ij = (xbar - x_j) / k. With k = 1 the node and all of S_i end at xbar.
// Growing the prefix is monotone: once a neighbour is at or above the mean including it, every later
// (more loaded) one is too, so a single pass finds S_i.
#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/error.hpp"

#include <fmt/format.h>

namespace hetlb::diffusion {

std::vector<double> best_effort_transfers(double load, const std::vector<double>& neighbours, double k) {
  if (!(k >= 1.0)) throw Error(fmt::format("best effort: k = {}; expected k >= 1", k));
  std::vector<double> out(neighbours.size(), 0.0);
  const std::vector<int> order = order_by_load(neighbours);
  double sum = load;
  std::size_t selected = 0;
  for (int j : order) {
    const double x = neighbours[j];
    if (!(x < load)) break;
    const double mean = (sum + x) / static_cast<double>(selected + 2);
    if (!(x < mean)) break;
    sum += x;
    ++selected;
  }
  if (selected == 0) return out;
  const double mean = sum / static_cast<double>(selected + 1);
  for (std::size_t p = 0; p < selected; ++p) {
    const int j = order[p];
    out[j] = (mean - neighbours[j]) / k;
  }
  return out;
}

}  // namespace hetlb::diffusion
