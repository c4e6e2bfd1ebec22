#include "hetlb/scatter/problem.hpp"

#include <algorithm>
#include <cmath>

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

namespace {
// Largest time f takes on 0..n items: f(n), or a larger measured point of a table (tables need not
// be monotone; between points and beyond them they are linear).
double largest_on(const CostFunction& f, Count n) {
  double m = f(n);
  for (const auto& point : f.points()) m = std::max(m, point.second);
  return m;
}

// Every makespan of equation (2) is at most the sum of the receptions plus the longest computation;
// that bound, doubled for the evaluators' sums, must be a finite double (else plans print inf).
void check_finite_times(const Problem& p) {
  double comms = 0, comp = 0;
  std::size_t worst = 0;
  double worst_time = -1;
  for (std::size_t k = 0; k < p.names.size(); ++k) {
    const double c = largest_on(p.comm[k], p.items), t = largest_on(p.compute[k], p.items);
    comms += c;
    comp = std::max(comp, t);
    if (std::max(c, t) > worst_time) worst_time = std::max(c, t), worst = k;
  }
  if (!std::isfinite(2 * (comms + comp)))
    throw Error(fmt::format("platform: {} items take up to {:.6g} s on processor {} (receptions add up to {:.6g} s); "
                            "expected finite times (smaller costs or fewer items)",
                            p.items, worst_time, p.names[worst], comms));
}
}  // namespace

Problem make_problem(const Platform& platform, const std::vector<std::size_t>& order, Count items) {
  if (order.empty()) throw Error("send order: expected at least one processor");
  if (items <= 0) throw Error(fmt::format("items = {}: expected a positive number of items", items));
  Problem p;
  p.items = items;
  p.names.reserve(order.size());
  p.platform_index.reserve(order.size());
  p.compute.reserve(order.size());
  p.comm.reserve(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t idx = order[k];
    if (idx >= platform.processors.size()) throw Error("send order: processor index out of range");
    const Processor& proc = platform.processors[idx];
    p.names.push_back(proc.name);
    p.platform_index.push_back(idx);
    p.compute.push_back(proc.compute);
    p.comm.push_back(k + 1 == order.size() ? CostFunction::linear(0.0) : proc.comm);
  }
  check_finite_times(p);
  return p;
}

}  // namespace hetlb::scatter
