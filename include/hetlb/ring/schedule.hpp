// An explicit redistribution schedule: transfers over ring links, and what is proven of it.
// A transfer sends `items` items one after the other over one link: the m-th item leaves at
// start + (m-1)*cost and arrives at start + m*cost, so end - start = items * cost.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetlb/model/cost_function.hpp"

namespace hetlb::ring {

struct Transfer {
  std::size_t from = 0;
  std::size_t to = 0;
  bool to_succ = true;  // over the link towards the successor (cost succ_cost[from]) or the predecessor
  Count items = 0;
  double start = 0;
  double end = 0;
};

struct Plan {
  std::string algorithm;  // e.g. "algorithm-1", "algorithm-2", "algorithm-3", "system-6", "system-8", "flow-paths"
  std::string method;     // how the schedule was built, in words
  std::vector<Transfer> transfers;
  double time = 0;         // the last arrival (0 when nothing moves)
  double lower_bound = 0;  // proven lower bound on every schedule's time
  bool optimal = false;    // proven optimal (a theorem of the paper, or time == lower_bound)
  std::vector<Count> flow;         // net items over link i -> i+1 (negative: from P_{i+1} to P_i)
  std::vector<Count> final_loads;  // L_i + received - sent
  // Individual bounds, when computed (see bounds.hpp).
  std::optional<double> lemma1_bound, lemma6_bound, lemma12_bound, system6_bound;
  std::optional<double> system6_rational;  // rational optimum of System 6 (Theorem 4)
};

// L_i + received - sent for every processor.
std::vector<Count> final_loads(std::size_t n, const std::vector<Count>& loads, const std::vector<Transfer>& transfers);

// The latest transfer end (0 for none).
double last_arrival(const std::vector<Transfer>& transfers);

}  // namespace hetlb::ring
