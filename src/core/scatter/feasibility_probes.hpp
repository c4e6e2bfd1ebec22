// Feasibility tests "is there a distribution finishing by T?" used by the exact planner's
// bisection on the makespan (see exact.hpp). Internal to the scatter planners.
#pragma once
#include <cmath>
#include <utility>
#include <vector>

#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter::detail {

enum class Probe { Feasible, Infeasible, TooLarge };

// max_items_within(comm, comp, start, T, limit) (the same exact test), with fewer evaluations for
// affine costs: the closed form, then the two neighbouring checks.
inline Count capacity(const CostFunction& comm, const CostFunction& comp, double start, double T, Count limit) {
  if (!comm.is_affine() || !comp.is_affine() || start > T || limit <= 0) return max_items_within(comm, comp, start, T, limit);
  const double slope = comm.per_item() + comp.per_item();
  if (!(slope > 0)) return max_items_within(comm, comp, start, T, limit);
  const double fixed = (comm.kind() == CostFunction::Kind::Affine ? comm.latency() : 0.0) +
                       (comp.kind() == CostFunction::Kind::Affine ? comp.latency() : 0.0);
  const double guess = std::floor((T - start - fixed) / slope);
  Count x = guess < 0 ? 0 : guess >= static_cast<double>(limit) ? limit : static_cast<Count>(guess);
  auto fits = [&](Count v) { return (start + comm(v)) + comp(v) <= T; };
  bool ok = x == 0 || fits(x);
  for (int step = 0; step < 4 && !ok; ++step) ok = --x == 0 || fits(x);
  if (!ok) return max_items_within(comm, comp, start, T, limit);
  bool more = x < limit && fits(x + 1);
  for (int step = 0; step < 4 && more; ++step) more = ++x < limit && fits(x + 1);
  return more ? max_items_within(comm, comp, start, T, limit) : x;
}

// Minimum over x in [lo, hi] of (start + comm(x)) + root(left - x), where comm is affine on [lo, hi]
// and root piecewise linear (breakpoints: x values of its table, plus its latency jump at 0).
std::pair<double, Count> best_split(double start, const CostFunction& comm, Count lo, Count hi,
                                    const CostFunction& root, Count left);

// Linear links in bandwidth order: greedy fill, front first, then the best split with the root.
class GreedyProbe {
 public:
  explicit GreedyProbe(const Problem& pb) : pb_(pb) {}
  Probe operator()(double T, std::vector<Count>* items);

 private:
  const Problem& pb_;
  std::vector<Count> cum_;
  std::vector<double> sent_;
};

// Affine links (latencies) in bandwidth order: an optimal distribution uses a set of processors,
// all at their greedy capacity but the last used one; the sets are explored as a Pareto frontier of
// (root's sending date, items placed). Gives up (TooLarge) past `max_states` states in a layer.
class FrontierProbe {
 public:
  FrontierProbe(const Problem& pb, std::size_t max_states) : pb_(pb), max_states_(max_states) {}
  Probe operator()(double T, std::vector<Count>* items);

 private:
  struct Node {
    double sent;
    Count placed;
    int parent;
    int proc;
    Count take;
  };
  void unwind(int node, std::vector<Count>* items) const;

  const Problem& pb_;
  std::size_t max_states_;
  std::vector<Node> nodes_;
};

// Any send order, non-decreasing costs of every kind (linear, affine, tables on links and
// processors): the exact Pareto frontier of (items placed m, root's sending date s) after each
// processor, min s for each m, kept only where the rational relaxation of the remaining processors
// (linear minorants, Theorems 1-2: they process at most (T - s) / D items by T) can still finish
// the n items. Every state dropped provably cannot complete, so the probe is exact; the window of
// surviving m is narrow (its width is the rational slack in items), whatever n. Gives up
// (TooLarge) past `max_states` states in a layer or in total.
class WindowProbe {
 public:
  WindowProbe(const Problem& pb, std::size_t max_layer_states, std::size_t max_total_states);
  Probe operator()(double T, std::vector<Count>* items);
  std::size_t last_states() const { return last_states_; }  // states kept by the last probe

 private:
  struct Piece {  // comm(x) = a + b x for integers x in [lo, hi], lo >= 1
    Count lo, hi;
    double a, b;
  };
  struct Layer {  // states m in [lo, lo + size): send date s (inf: none) and the previous m
    Count lo = 0;
    std::vector<double> s;
    std::vector<Count> from;
  };
  struct Span {  // candidates m' in [start, end] of value key + b m', from state `from`
    Count start, end;
    double key;
    Count from;
    std::size_t piece;
  };
  bool expand(std::size_t i, double T, const Layer& prev, Layer& next);

  const Problem& pb_;
  std::size_t max_layer_, max_total_;
  std::vector<std::vector<Piece>> pieces_;
  std::vector<double> rate_;  // rate_[i]: items per second of processors i..p-1 (rational, minorants)
  std::vector<Layer> layers_;
  std::vector<Span> spans_;
  std::vector<std::pair<double, std::size_t>> heap_;
  std::size_t last_states_ = 0;
};

}  // namespace hetlb::scatter::detail
