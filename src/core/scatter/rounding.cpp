// RR-4770, Section 3.3, rounding scheme: first round the share nearest to an integer; then, while
// the accumulated error e is negative (resp. non-negative), round up (resp. down) the remaining
// share nearest to its ceiling (resp. floor); the last share takes what is left, so the sum is n
// and every share moves by less than one item.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetlb/error.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

std::vector<Count> round_shares(const std::vector<double>& shares, Count items) {
  const std::size_t p = shares.size();
  std::vector<Count> out(p, 0);
  std::vector<double> frac(p, 0.0);
  std::vector<std::size_t> open;  // shares that are not integers yet
  for (std::size_t i = 0; i < p; ++i) {
    if (!std::isfinite(shares[i]) || shares[i] > static_cast<double>(items) + 1.0)
      throw Error("rounding: a rational share is not a number of items between 0 and n");
    const double v = std::max(0.0, shares[i]);
    const double fl = std::floor(v);
    out[i] = static_cast<Count>(fl);
    frac[i] = v - fl;
    if (frac[i] > 0.0) open.push_back(i);
  }
  if (open.empty()) {
    const Count sum = std::accumulate(out.begin(), out.end(), Count{0});
    if (sum != items) {  // only floating noise in an integral solution: give it to the largest share
      auto it = std::max_element(out.begin(), out.end());
      *it += items - sum;
    }
    return out;
  }
  // Sorted by fractional part: the front is nearest to its floor, the back nearest to its ceiling.
  std::sort(open.begin(), open.end(), [&](std::size_t a, std::size_t b) {
    return frac[a] != frac[b] ? frac[a] < frac[b] : a < b;
  });
  std::size_t lo = 0, hi = open.size();  // remaining: open[lo .. hi)
  double error = 0.0;                    // sum of (rounded - rational) so far
  auto round_down = [&] { const std::size_t i = open[lo++]; error -= frac[i]; };
  auto round_up = [&] { const std::size_t i = open[--hi]; out[i] += 1; error += 1.0 - frac[i]; };
  // First step: the share nearest to an integer, to its nearest integer.
  if (frac[open[lo]] <= 1.0 - frac[open[hi - 1]]) round_down(); else round_up();
  while (hi - lo > 1) {
    if (error < 0) round_up(); else round_down();
  }
  // The last share takes what is left.
  Count sum = 0;
  for (std::size_t i = 0; i < p; ++i) sum += out[i];
  if (hi - lo == 1) {
    const std::size_t last = open[lo];
    out[last] += items - sum;
  } else if (sum != items) {
    throw Error("rounding: the rational shares do not sum to the number of items");
  }
  for (Count v : out)
    if (v < 0) throw Error("rounding: the rational shares do not sum to the number of items");
  return out;
}

}  // namespace hetlb::scatter
