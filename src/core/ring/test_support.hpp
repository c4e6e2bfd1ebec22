// Test-only helpers for the ring planners: seeded random rings of every shape, and reference
// computations written independently of the library (brute force over slices, item by item).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::ring::testing {

enum class Shape { Random, Hypothesis, Zeros, Concentrated, Large };
enum class Costs { Homogeneous, Integer, Real };

inline const char* shape_name(Shape s) {
  switch (s) {
    case Shape::Random: return "random";
    case Shape::Hypothesis: return "hypothesis";
    case Shape::Zeros: return "zeros";
    case Shape::Concentrated: return "concentrated";
    case Shape::Large: return "large";
  }
  return "?";
}

// Targets >= lo summing to `total`, drawn around `hint`.
inline std::vector<Count> spread(std::mt19937_64& g, std::size_t n, Count total, Count lo, Count hi) {
  std::uniform_int_distribution<Count> d(lo, hi);
  std::vector<Count> t(n);
  for (auto& x : t) x = d(g);
  Count sum = 0;
  for (Count x : t) sum += x;
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  while (sum != total) {
    const std::size_t i = pick(g);
    Count step = std::max<Count>(1, std::abs(total - sum) / static_cast<Count>(2 * n));
    if (sum < total) {
      step = std::min(step, total - sum);
      t[i] += step;
      sum += step;
    } else {
      step = std::min({step, sum - total, t[i] - lo});
      t[i] -= step;
      sum -= step;
    }
  }
  return t;
}

inline Ring random_ring(std::mt19937_64& g, std::size_t n, Shape shape, Costs costs, bool bidirectional) {
  Ring r;
  Count lo = 0, hi = 12;
  if (shape == Shape::Hypothesis) lo = 1;
  if (shape == Shape::Large) lo = 1, hi = 1'000'000;
  std::uniform_int_distribution<Count> d(lo, hi);
  r.loads.resize(n);
  for (auto& x : r.loads) x = d(g);
  if (shape == Shape::Concentrated) {  // one or two big holders, others must forward much more than they hold
    for (auto& x : r.loads) x = 1;
    r.loads[g() % n] += 40 + static_cast<Count>(g() % 60);
    r.loads[g() % n] += static_cast<Count>(g() % 30);
  }
  Count total = 0;
  for (Count x : r.loads) total += x;
  const Count tlo = (shape == Shape::Zeros || shape == Shape::Random) ? 0 : 1;
  r.targets = spread(g, n, total, tlo, std::max<Count>(tlo, total / static_cast<Count>(n) * 2));
  if (shape == Shape::Random && g() % 2) std::shuffle(r.targets.begin(), r.targets.end(), g);
  auto cost = [&]() -> double {
    switch (costs) {
      case Costs::Homogeneous: return 1.0;
      case Costs::Integer: return static_cast<double>(1 + g() % 5);
      case Costs::Real: return 0.1 + static_cast<double>(g() % 10000) / 1000.0;
    }
    return 1.0;
  };
  const double hom = costs == Costs::Homogeneous ? std::vector<double>{1.0, 0.5, 3.0, 0.1}[g() % 4] : 0.0;
  r.succ_cost.resize(n);
  for (auto& c : r.succ_cost) c = costs == Costs::Homogeneous ? hom : cost();
  if (bidirectional) {
    r.pred_cost.resize(n);
    for (auto& c : r.pred_cost) c = costs == Costs::Homogeneous ? hom : cost();
  }
  return r;
}

inline std::string describe(const Ring& r) {
  std::string s = "loads";
  for (Count x : r.loads) s += " " + std::to_string(x);
  s += " | targets";
  for (Count x : r.targets) s += " " + std::to_string(x);
  s += " | succ";
  for (double x : r.succ_cost) s += " " + std::to_string(x);
  if (r.bidirectional()) {
    s += " | pred";
    for (double x : r.pred_cost) s += " " + std::to_string(x);
  }
  return s;
}

// All slices C_{k,l} of 1..n-1 processors, by direct summation: (first, last, delta).
struct Slice {
  std::size_t k, l;
  Count delta;
};
inline std::vector<Slice> all_slices(const Ring& r) {
  std::vector<Slice> out;
  const std::size_t n = r.size();
  for (std::size_t k = 0; k < n; ++k) {
    Count s = 0;
    for (std::size_t len = 1; len < n; ++len) {
      const std::size_t l = (k + len - 1) % n;
      s += r.loads[l] - r.targets[l];
      out.push_back(Slice{k, l, s});
    }
  }
  return out;
}

// Lemma 1 / Theorem 2 bound by brute force.
inline double brute_unidirectional_bound(const Ring& r) {
  const std::size_t n = r.size();
  double b = 0;
  for (const Slice& s : all_slices(r)) {
    if (s.delta > 0) b = std::max(b, static_cast<double>(s.delta) * r.succ_cost[s.l]);
    if (s.delta < 0) b = std::max(b, static_cast<double>(-s.delta) * r.succ_cost[(s.k + n - 1) % n]);
  }
  return b;
}

// Lemma 6 bound by brute force.
inline double brute_lemma6_bound(const Ring& r) {
  Count m = 0;
  for (const Slice& s : all_slices(r)) {
    const Count a = std::abs(s.delta);
    const bool single = s.k == s.l;
    m = std::max(m, single ? a : (a + 1) / 2);
  }
  return static_cast<double>(m) * r.succ_cost[0];
}

// One-port time of System 6 for the net flow R (R[i]: link i -> i+1), written from the system.
inline double system6_time_of(const Ring& r, const std::vector<Count>& R) {
  const std::size_t n = r.size();
  double t = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = (i + n - 1) % n, s = (i + 1) % n;
    const double S_i_succ = std::max<Count>(R[i], 0), S_i_pred = std::max<Count>(-R[p], 0);
    const double S_pred_i = std::max<Count>(R[p], 0), S_succ_i = std::max<Count>(-R[i], 0);
    t = std::max(t, S_i_succ * r.succ_cost[i] + S_i_pred * r.pred_cost[i]);
    t = std::max(t, S_pred_i * r.succ_cost[p] + S_succ_i * r.pred_cost[s]);
  }
  return t;
}

// The net flows conserving items, R_i = R_{i-1} + delta_i, with R_{n-1} = theta.
inline std::vector<Count> flows_for(const Ring& r, Count theta) {
  std::vector<Count> R(r.size());
  Count f = theta;
  for (std::size_t i = 0; i < r.size(); ++i) R[i] = f += r.loads[i] - r.targets[i];
  return R;
}

// Item-by-item check of holdings and final loads (reference for the verifier). Returns "" if fine.
inline std::string item_level_check(const Ring& r, const std::vector<Transfer>& ts) {
  struct Ev {
    double t;
    int kind;  // 0 arrival, 1 departure (arrivals first at equal times)
    std::size_t p;
  };
  std::vector<Ev> ev;
  double span = 0;
  for (const Transfer& x : ts) span = std::max(span, x.end);
  const double eps = 1e-9 * span;
  for (const Transfer& x : ts) {
    const double c = (x.end - x.start) / static_cast<double>(x.items);
    for (Count m = 1; m <= x.items; ++m) {
      ev.push_back(Ev{x.start + static_cast<double>(m - 1) * c, 1, x.from});
      ev.push_back(Ev{x.start + static_cast<double>(m) * c - eps, 0, x.to});  // held from arrival, with tolerance
    }
  }
  std::sort(ev.begin(), ev.end(), [](const Ev& a, const Ev& b) { return a.t != b.t ? a.t < b.t : a.kind < b.kind; });
  std::vector<Count> held(r.loads);
  for (const Ev& e : ev) {
    if (e.kind == 0) {
      ++held[e.p];
    } else {
      if (held[e.p] < 1) return "P_" + std::to_string(e.p) + " sends without an item at " + std::to_string(e.t);
      --held[e.p];
    }
  }
  for (std::size_t p = 0; p < r.size(); ++p)
    if (held[p] != r.targets[p]) return "P_" + std::to_string(p) + " final load";
  return "";
}

}  // namespace hetlb::ring::testing
