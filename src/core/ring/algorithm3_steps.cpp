// Algorithm 3 of the paper exactly as written (homogeneous bidirectional ring): one synchronous step
// of length c per unit of delta_max, each step re-deriving its rules from every slice (O(n^2) per
// step, so O(n^2 D) in all). Kept as the reference the flow formulation of
// homogeneous_bidirectional.cpp is measured against (same time D c, Lemma 8 / Theorem 3).
#include <algorithm>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/ring/bidirectional.hpp"
#include "hetlb/ring/bounds.hpp"

namespace hetlb::ring {

namespace {
Count ceil_half(Count x) { return (x + 1) / 2; }
}  // namespace

Plan plan_algorithm3_steps(const Ring& ring) {
  const std::size_t n = ring.size();
  const double c = ring.succ_cost[0];
  std::vector<Count> d = unbalances(ring);
  auto P = [n](std::size_t i) { return (i + n - 1) % n; };
  auto S = [n](std::size_t i) { return (i + 1) % n; };
  Plan p;
  p.algorithm = "algorithm-3-steps";
  p.method = "Algorithm 3 as written: one step per unit of delta_max";
  p.lower_bound = lemma6_bound(ring);
  p.lemma6_bound = p.lower_bound;
  // Open runs of consecutive steps per directed link: (first step, items).
  std::vector<std::pair<Count, Count>> run_r(n, {-1, 0}), run_l(n, {-1, 0});
  auto flush = [&](std::size_t i, bool right) {
    auto& run = right ? run_r[i] : run_l[i];
    if (run.second == 0) return;
    const double start = static_cast<double>(run.first) * c;
    p.transfers.push_back(Transfer{i, right ? S(i) : P(i), right, run.second, start, start + static_cast<double>(run.second) * c});
    run = {-1, 0};
  };
  Count prev_max = -1;
  for (Count step = 0;; ++step) {
    // Step 1: delta_max over single processors and slices of 2..n-1 processors.
    Count dmax = 0;
    for (Count x : d) dmax = std::max(dmax, x < 0 ? -x : x);
    for (std::size_t k = 0; k < n; ++k) {
      Count s = d[k];
      for (std::size_t len = 2; len < n; ++len) {
        s += d[(k + len - 1) % n];
        dmax = std::max(dmax, ceil_half(s < 0 ? -s : s));
      }
    }
    if (dmax == 0) break;
    if (prev_max >= 0 && dmax != prev_max - 1)
      throw Error(fmt::format("algorithm 3: delta_max went from {} to {} at step {}; expected a decrease by one", prev_max, dmax, step));
    prev_max = dmax;
    std::vector<char> right(n, 0), left(n, 0);  // P_i sends to P_{i+1} / P_{i-1} during this step
    for (std::size_t k = 0; k < n; ++k) {
      Count s = d[k];
      for (std::size_t len = 2; len < n; ++len) {
        const std::size_t l = (k + len - 1) % n;
        s += d[l];
        if (dmax != 2) {  // Steps 4-9
          if (s > 1 && ceil_half(s) == dmax) left[k] = right[l] = 1;
          if (s < -1 && ceil_half(-s) == dmax) right[P(k)] = left[S(l)] = 1;
        } else {  // Steps 11-18
          if (s >= 3) right[l] = 1;
          if (s == 4) left[k] = 1;
          if (s <= -3) right[P(k)] = 1;
          if (s == -4) left[S(l)] = 1;
        }
      }
    }
    for (std::size_t i = 0; i < n; ++i)  // Steps 19-21
      if (d[i] == dmax && !right[i] && !left[i]) right[i] = 1;
    for (std::size_t i = 0; i < n; ++i)  // Steps 22-24
      if (d[i] == -dmax && !right[P(i)] && !left[S(i)]) right[P(i)] = 1;
    if (dmax == 1) {  // Steps 25-30: processors with no unbalance forward what they receive
      for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < n; ++i) {
          if (d[i] != 0) continue;
          if (right[P(i)] && !right[i]) right[i] = 1, changed = true;
          if (left[S(i)] && !left[i]) left[i] = 1, changed = true;
        }
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      d[i] -= right[i] + left[i];
      d[S(i)] += right[i];
      d[P(i)] += left[i];
    }
    for (std::size_t i = 0; i < n; ++i)
      for (bool dir : {true, false}) {
        auto& run = dir ? run_r[i] : run_l[i];
        const bool sends = dir ? right[i] : left[i];
        if (!sends) {
          flush(i, dir);
        } else if (run.second > 0) {
          ++run.second;  // open runs were extended at every step so far
        } else {
          run = {step, 1};
        }
      }
  }
  for (std::size_t i = 0; i < n; ++i) {
    flush(i, true);
    flush(i, false);
  }
  p.time = last_arrival(p.transfers);
  p.optimal = p.time <= p.lower_bound * (1 + 1e-12);
  p.final_loads = final_loads(n, ring.loads, p.transfers);
  return p;
}

}  // namespace hetlb::ring
