// The result of a scatter planner: an integer distribution in send order and what is proven of it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "hetlb/model/cost_function.hpp"

namespace hetlb::scatter {

struct Plan {
  std::string algorithm;  // its name in the registry (algorithm_registry.hpp)
  std::string method;     // how it was computed (e.g. "bisection + greedy fill", "dp fallback: ...")
  std::vector<Count> items;  // n_i in send order, root last
  double makespan = 0.0;     // equation (2) on `items`
  double lower_bound = 0.0;  // a proven lower bound on the integer optimum for this order
  bool optimal = false;      // proven optimal for this order
  std::optional<double> rational_optimum;  // LP (3) optimum, when computed
  std::optional<double> guarantee;         // equation (4): makespan <= rational_optimum + guarantee
};

}  // namespace hetlb::scatter
