// "makhoul": Algorithm 2 of Bahi, Giersch & Makhoul (2008), as summarised by Couturier & Giersch,
// Section 3. Neighbours are taken from the least to the most loaded; with N neighbours, neighbour j
// is offered (x_i - x_j) / (N + 1), the difference computed before any sending, as long as the node
// stays at least as loaded as that neighbour after the transfer (x_i' - s >= x_j + s); the first
// neighbour that fails this, or is not less loaded, stops the loop.
//
// Time view: with t_j = x_j / r_j (r_j: j's speed relative to the node's), the difference is taken in
// time, t_i - t_j. By load, (x_i - x_j) / (N + 1) is the fraction 2 / (N + 1) of the amount that would
// leave the two nodes equal, (x_i - x_j) / 2; by time that amount is (t_i - t_j) / (1 + 1 / r_j), so
//   s = 2 (t_i - t_j) r_j / ((N + 1) (r_j + 1)),
// and the stop test compares dates: the node's date after the transfer must stay at or above every
// receiver's so far, x_i' - s >= max(t_j + s / r_j, earlier receivers' dates). (By load the receivers'
// dates grow with x_j, so the last is the largest; by time a slow receiver can end later than a
// faster one served after it, hence the maximum.) (Converting the date difference's
// (N + 1)-th part with the receiver's speed alone, (t_i - t_j) r_j / (N + 1), would fail the stop test
// at once for any neighbour more than N times faster: the node would never feed it.) With r_j = 1 the
// factors 2 cancel exactly and s is the load rule's.
#include <algorithm>

#include "hetlb/diffusion/strategy.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::diffusion {

std::vector<double> makhoul_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& speeds) {
  std::vector<double> out(neighbours.size(), 0.0);
  const double parts = static_cast<double>(neighbours.size()) + 1.0;
  std::vector<double> dates;
  if (!speeds.empty()) {
    dates.resize(neighbours.size());
    for (std::size_t j = 0; j < neighbours.size(); ++j) dates[j] = time_of(neighbours, speeds, j);
  }
  const std::vector<double>& t = speeds.empty() ? neighbours : dates;
  double remaining = load;
  double latest = 0;  // time view: the latest date of a receiver so far
  for (int j : order_by_load(t)) {
    const double diff = load - t[j];
    if (!(diff > 0)) break;
    if (speeds.empty()) {
      const double s = diff / parts;
      if (remaining - s < t[j] + s) break;
      out[j] = s;
      remaining -= s;
      continue;
    }
    const double r = speeds[j];
    const double s = 2.0 * diff * r / (parts * (r + 1.0));
    const double date = std::max(latest, t[j] + s / r);
    if (remaining - s < date) break;
    out[j] = s;
    remaining -= s;
    latest = date;
  }
  return out;
}

}  // namespace hetlb::diffusion

namespace hetlb::diffusion {
namespace {
std::vector<double> decide_makhoul(const Rule&, const NodeView& v) {
  return makhoul_transfers(v.load, v.neighbours, v.speeds);
}
}  // namespace

const Rule& makhoul_rule() {
  static const Rule rule{"makhoul", "Makhoul",
                         "Bahi, Giersch & Makhoul's Algorithm 2: (x_i - x_j) / (N + 1) from the least loaded on",
                         {},
                         decide_makhoul};
  return rule;
}
}  // namespace hetlb::diffusion
