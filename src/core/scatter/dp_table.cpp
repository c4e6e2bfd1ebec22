#include "dp_table.hpp"

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/evaluate.hpp"

namespace hetlb::scatter {

std::size_t dp_memory_bytes(const Problem& problem) {
  const std::size_t n1 = static_cast<std::size_t>(problem.items) + 1;
  return (problem.size() - 1) * n1 * sizeof(std::uint32_t) + 2 * n1 * sizeof(double);
}

DpTable::DpTable(const Problem& pb) : problem(pb), stride(static_cast<std::size_t>(pb.items) + 1) {
  if (pb.items >= static_cast<Count>(UINT32_MAX))
    throw Error(fmt::format("dynamic programming: n = {} items: expected fewer than 2^32", pb.items));
  const double bytes = static_cast<double>(dp_memory_bytes(pb));
  if (bytes > kDpMaxTableBytes)
    throw Error(fmt::format("dynamic programming: {:.3g} bytes of tables for p = {}, n = {}: expected at most "
                            "{:.0g} (use exact or lp)", bytes, pb.size(), pb.items, kDpMaxTableBytes));
  choices.assign((pb.size() - 1) * stride, 0);
  cur.assign(stride, 0.0);
  next.assign(stride, 0.0);
}

Plan DpTable::finish(const std::string& algorithm, const std::string& method) {
  Plan plan;
  plan.algorithm = algorithm;
  plan.method = method;
  plan.items.assign(problem.size(), 0);
  Count d = problem.items;
  for (std::size_t i = 0; i + 1 < problem.size(); ++i) {
    const Count e = row(i)[d];
    plan.items[i] = e;
    d -= e;
  }
  plan.items.back() = d;
  plan.makespan = makespan(problem, plan.items);
  plan.lower_bound = plan.makespan;
  plan.optimal = true;
  return plan;
}

}  // namespace hetlb::scatter
