// Storage shared by the two dynamic programs: two cost rows and a 32-bit choice per (i, d).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

struct DpTable {
  explicit DpTable(const Problem& problem);
  std::uint32_t* row(std::size_t i) { return choices.data() + i * stride; }
  // Walks the choices from P_1 with d = n and evaluates the distribution.
  Plan finish(const std::string& algorithm, const std::string& method);

  const Problem& problem;
  std::size_t stride;
  std::vector<std::uint32_t> choices;  // rows 0 .. p-2 (the root takes what is left)
  std::vector<double> cur, next;
};

}  // namespace hetlb::scatter
