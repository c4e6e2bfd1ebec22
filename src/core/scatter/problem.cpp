#include "hetlb/scatter/problem.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::scatter {

bool Problem::all_linear() const {
  auto lin = [](const CostFunction& f) { return f.is_linear(); };
  return std::all_of(comm.begin(), comm.end(), lin) && std::all_of(compute.begin(), compute.end(), lin);
}

bool Problem::all_affine() const {
  auto aff = [](const CostFunction& f) { return f.is_affine(); };
  return std::all_of(comm.begin(), comm.end(), aff) && std::all_of(compute.begin(), compute.end(), aff);
}

bool Problem::all_non_decreasing() const {
  auto nd = [](const CostFunction& f) { return f.is_non_decreasing(); };
  return std::all_of(comm.begin(), comm.end(), nd) && std::all_of(compute.begin(), compute.end(), nd);
}

Problem make_problem(const Platform& platform, const std::vector<std::size_t>& order, Count items) {
  if (order.empty()) throw Error("send order: expected at least one processor");
  if (items <= 0) throw Error(fmt::format("items = {}: expected a positive number of items", items));
  Problem p;
  p.items = items;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t idx = order[k];
    if (idx >= platform.processors.size()) throw Error("send order: processor index out of range");
    const Processor& proc = platform.processors[idx];
    p.names.push_back(proc.name);
    p.platform_index.push_back(idx);
    p.compute.push_back(proc.compute);
    p.comm.push_back(k + 1 == order.size() ? CostFunction::linear(0.0) : proc.comm);
  }
  return p;
}

}  // namespace hetlb::scatter
