// Evaluator of a distribution under the single-port model: equations (1) and (2) of RR-4770.
#pragma once
#include <vector>

#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

struct ShareTiming {
  double comm_start = 0;  // the root starts sending to this processor (root: ends sending to all)
  double comm_end = 0;    // reception complete, computation starts
  double finish = 0;      // T_i of equation (1)
  double idle = 0;        // waiting before reception plus waiting after finishing, up to the makespan
};

struct Schedule {
  std::vector<ShareTiming> shares;  // in send order
  double makespan = 0;              // equation (2)
  double first_finish = 0;          // earliest finish among processors that received items
  double last_finish = 0;
};

// Equation (1): T_i = sum_{j<=i} Tcomm(j, n_j) + Tcomp(i, n_i); the root is last.
Schedule evaluate(const Problem& problem, const std::vector<Count>& items);

// Equation (2) only, without building the schedule (hot loops).
double makespan(const Problem& problem, const std::vector<Count>& items);

}  // namespace hetlb::scatter
