// A scatter instance in send order (RR-4770, Section 3.1): processors P_1..P_p, the root last.
// The root keeps its own share, so its communication cost is zero whatever its platform entry says.
#pragma once
#include <string>
#include <vector>

#include "hetlb/model/platform.hpp"

namespace hetlb::scatter {

struct Problem {
  std::vector<std::string> names;     // in send order, root last
  std::vector<std::size_t> platform_index;  // position of each in Platform::processors
  std::vector<CostFunction> comm;     // Tcomm(i, x); comm.back() is zero (the root)
  std::vector<CostFunction> compute;  // Tcomp(i, x)
  Count items = 0;

  std::size_t size() const { return names.size(); }
  bool all_linear() const;           // every cost linear (Section 4)
  bool all_affine() const;           // every cost affine (Section 3.3)
  bool all_non_decreasing() const;   // hypothesis of Algorithm 2
};

// Builds the problem for a send order given as platform indices; the root must be last.
Problem make_problem(const Platform& platform, const std::vector<std::size_t>& order, Count items);

}  // namespace hetlb::scatter
