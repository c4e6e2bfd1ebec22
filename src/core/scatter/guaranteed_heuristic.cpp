// RR-4770, Section 3.3 (the guaranteed heuristic) and Section 4.4 (its use with linear costs).
#include "hetlb/scatter/guaranteed_heuristic.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter {

RationalSolution solve_rational_linear_of(const Problem& problem);  // closed_form.cpp

double rounding_guarantee(const Problem& pb) {
  double comm = 0.0, comp = 0.0;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    comm += pb.comm[i](Count{1});
    comp = std::max(comp, pb.compute[i](Count{1}));
  }
  return comm + comp;
}

namespace {
Plan rounded(const Problem& pb, const RationalSolution& rat, const char* algorithm, bool rational_is_bound) {
  Plan plan;
  plan.algorithm = algorithm;
  plan.method = rat.method + ", rounded (Section 3.3)";
  plan.items = round_shares(rat.shares, pb.items);
  plan.makespan = makespan(pb, plan.items);
  plan.rational_optimum = rat.makespan;
  plan.guarantee = rounding_guarantee(pb);
  // With latencies the LP charges every processor even when it gets nothing, so its optimum is not
  // a lower bound on integer solutions; the bound then comes from the latency-free relaxation.
  plan.lower_bound = rational_is_bound ? rat.makespan : rational_lower_bound(pb);
  plan.lower_bound = std::min(plan.lower_bound, plan.makespan);
  plan.optimal = plan.makespan <= plan.lower_bound;
  return plan;
}
}  // namespace

Plan solve_lp(const Problem& pb) {
  return rounded(pb, solve_lp_affine(pb), "lp", pb.all_linear());
}

Plan solve_closed_form(const Problem& pb) {
  if (!pb.all_linear()) {
    for (std::size_t i = 0; i < pb.size(); ++i) {
      if (!pb.compute[i].is_linear())
        throw Error(fmt::format("closed-form: needs linear costs; {} compute is {}", pb.names[i], pb.compute[i].describe()));
      if (!pb.comm[i].is_linear())
        throw Error(fmt::format("closed-form: needs linear costs; {} comm is {}", pb.names[i], pb.comm[i].describe()));
    }
  }
  return rounded(pb, solve_rational_linear_of(pb), "closed-form", true);
}

}  // namespace hetlb::scatter
