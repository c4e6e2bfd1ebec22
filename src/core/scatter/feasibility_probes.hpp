// Feasibility tests "is there a distribution finishing by T?" used by the exact planner's
// bisection on the makespan (see exact.hpp). Internal to the scatter planners.
#pragma once
#include <utility>
#include <vector>

#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter::detail {

enum class Probe { Feasible, Infeasible, TooLarge };

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

}  // namespace hetlb::scatter::detail
