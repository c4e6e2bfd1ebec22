// Storage shared by the two dynamic programs: two cost rows and a 32-bit choice per (i, d).
#pragma once
#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {

struct DpTable {
  explicit DpTable(const Problem& problem);
  std::uint32_t* row(std::size_t i) { return choices.data() + i * stride; }
  // The recurrence of Algorithms 1 and 2, backward from the root's row cost[d, p]:
  // step(comm_i, comp_i, cost[., i+1], d) returns {e, cost[d, i]}, e the share of P_i.
  template <class Step>
  void fill(Step step) {
    const std::size_t p = problem.size();
    const Count n = problem.items;
    for (Count d = 0; d <= n; ++d) next[d] = problem.compute[p - 1](d) + problem.comm[p - 1](d);
    for (std::size_t i = p - 1; i-- > 0;) {
      std::uint32_t* choice = row(i);
      cur[0] = 0.0;
      choice[0] = 0;
      for (Count d = 1; d <= n; ++d) {
        const auto [e, cost] = step(problem.comm[i], problem.compute[i], next, d);
        cur[d] = cost;
        choice[d] = static_cast<std::uint32_t>(e);
      }
      std::swap(cur, next);
    }
  }
  // Walks the choices from P_1 with d = n and evaluates the distribution.
  Plan finish(const std::string& algorithm, const std::string& method);

  const Problem& problem;
  std::size_t stride;
  std::vector<std::uint32_t> choices;  // rows 0 .. p-2 (the root takes what is left)
  std::vector<double> cur, next;
};

}  // namespace hetlb::scatter
