// The minimum durations of a node's computing and load-balancing iterations (Couturier & Giersch,
// Algorithms 2 and 3: neither activity loops faster than its minimum). A balancing iteration takes no
// simulated time of its own and a computing iteration on a tiny load almost none, so a minimum of 0,
// or one below the clock's resolution (SimGrid resolves dates to 1e-9 s), would repeat an activity at
// one date for ever. One rule for the command line, the library and campaign specs.
#pragma once
#include <cmath>
#include <string>

namespace hetlb::diffusion {

// Shortest minimum iteration accepted, s: tau / 10 (the default computing minimum) at the smallest
// tau the simulator accepts (1e-6 s).
inline constexpr double kShortestMinIteration = 1e-7;

// A minimum iteration as given: a negative value stands for the default (tau/10 computing, tau
// balancing), else it is a duration of at least kShortestMinIteration.
inline bool valid_min_iteration(double seconds) {
  return std::isfinite(seconds) && (seconds < 0 || seconds >= kShortestMinIteration);
}

// kShortestMinIteration as written in refusals ("1e-07").
std::string shortest_min_iteration_text();
// What valid_min_iteration expects, for refusals ("expected " + this).
std::string min_iteration_expected();

}  // namespace hetlb::diffusion
