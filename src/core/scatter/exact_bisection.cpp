// Exact integer optimum by bisection on the makespan (see exact.hpp for the proofs of the two
// feasibility tests); falls back to RR-4770's Algorithm 2 / Algorithm 1 where they do not apply.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "feasibility_probes.hpp"
#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/uniform.hpp"

namespace hetlb::scatter {

namespace {

enum class Method { Greedy, Frontier, Dp };

Method exact_method(const Problem& pb, std::string* reason) {
  auto no = [&](std::string why) {
    if (reason) *reason = std::move(why);
    return Method::Dp;
  };
  if (!pb.all_non_decreasing()) return no("a cost function decreases");
  double prev = 0.0;
  bool latencies = false;
  for (std::size_t i = 0; i + 1 < pb.size(); ++i) {
    const CostFunction& c = pb.comm[i];
    if (!c.is_affine()) return no(fmt::format("{} comm is a table", pb.names[i]));
    if (c.per_item() < prev) return no("send order is not by decreasing bandwidth");
    prev = c.per_item();
    latencies = latencies || !c.is_linear();
  }
  return latencies ? Method::Frontier : Method::Greedy;
}

// Bisection down to adjacent doubles: lo infeasible, hi feasible. nullopt when the probe gives up.
template <class ProbeFn>
std::optional<Plan> bisection(const Problem& pb, ProbeFn& probe, const std::string& method) {
  using detail::Probe;
  const Plan uniform = solve_uniform(pb);
  double hi = uniform.makespan;
  std::vector<Count> best = uniform.items, items;
  double lo = rational_lower_bound(pb) * (1.0 - 1e-9);
  if (lo >= hi) lo = -1.0;
  const Probe at_lo = probe(lo, nullptr);
  if (at_lo == Probe::TooLarge) return std::nullopt;
  if (at_lo == Probe::Feasible) lo = -1.0;
  while (true) {
    const double mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    const Probe r = probe(mid, &items);
    if (r == Probe::TooLarge) return std::nullopt;
    if (r == Probe::Feasible) {
      hi = mid;
      best = items;
    } else {
      lo = mid;
    }
  }
  if (probe(hi, &items) == Probe::Feasible && makespan(pb, items) <= makespan(pb, best)) best = items;
  Plan plan;
  plan.algorithm = "exact";
  plan.method = method;
  plan.items = best;
  plan.makespan = makespan(pb, plan.items);
  plan.lower_bound = plan.makespan;
  plan.optimal = true;
  return plan;
}

}  // namespace

bool exact_fast_path_applies(const Problem& pb, std::string* reason) {
  return exact_method(pb, reason) != Method::Dp;
}

Plan solve_exact(const Problem& pb) {
  std::string why;
  const Method m = exact_method(pb, &why);
  if (m == Method::Greedy) {
    detail::GreedyProbe probe(pb);
    return *bisection(pb, probe, "bisection on the makespan + greedy fill (linear links in bandwidth order)");
  }
  if (m == Method::Frontier) {
    detail::FrontierProbe probe(pb, kExactFrontierMaxStates);
    if (auto plan = bisection(pb, probe, "bisection on the makespan + Pareto frontier of used processors "
                                         "(affine links in bandwidth order)"))
      return *plan;
    why = fmt::format("more than {} Pareto states", kExactFrontierMaxStates);
  }
  Plan plan = pb.all_non_decreasing() ? solve_dp(pb) : solve_dp_basic(pb);
  plan.method = fmt::format("{} (fallback: {})", plan.method, why);
  plan.algorithm = "exact";
  return plan;
}

}  // namespace hetlb::scatter
