// Exact integer optimum by bisection on the makespan (see exact.hpp for the proofs of the three
// feasibility tests). Where no test applies or a frontier outgrows its budget, the best plan found
// is returned with a proven lower bound; RR-4770's Algorithm 2 / Algorithm 1 only on request.
#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <cstdlib>

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

enum class Method { Greedy, Frontier, Window, None };

Method exact_method(const Problem& pb, std::string* reason) {
  auto why = [&](std::string text, Method m) {
    if (reason) *reason = std::move(text);
    return m;
  };
  if (!pb.all_non_decreasing()) return why("a cost function decreases", Method::None);
  double prev = 0.0;
  bool latencies = false;
  for (std::size_t i = 0; i + 1 < pb.size(); ++i) {
    const CostFunction& c = pb.comm[i];
    if (!c.is_affine()) return why(fmt::format("{} comm is a table", pb.names[i]), Method::Window);
    if (c.per_item() < prev) return why("send order is not by decreasing bandwidth", Method::Window);
    prev = c.per_item();
    latencies = latencies || !c.is_linear();
  }
  return latencies ? Method::Frontier : Method::Greedy;
}

Plan rounded(const Problem& pb, bool minorants) {
  std::vector<double> c, w;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    // A decreasing table can end on a negative slope: the relaxation needs non-negative costs.
    c.push_back(minorants ? pb.comm[i].lower_slope() : std::max(0.0, pb.comm[i].asymptotic_slope()));
    w.push_back(minorants ? pb.compute[i].lower_slope() : std::max(0.0, pb.compute[i].asymptotic_slope()));
  }
  c.back() = 0.0;
  Plan plan;
  plan.items = round_shares(solve_rational_linear(c, w, pb.items).shares, pb.items);
  Count sum = 0;
  for (Count v : plan.items) {
    if (v < 0) throw Error("rounding: negative share");
    sum += v;
  }
  if (sum != pb.items) throw Error("rounding: shares do not sum to n");
  plan.makespan = makespan(pb, plan.items);
  return plan;
}

std::string percent(double ub, double lb) {
  return lb > 0 ? fmt::format("{:.3g} %", 100.0 * (ub - lb) / lb) : std::string("unknown");
}

// Bisection down to adjacent doubles: lo infeasible, hi feasible. Starts from the heuristic plan;
// when a probe gives up, returns the best plan found with the largest date proven infeasible.
template <class ProbeFn>
Plan bisection(const Problem& pb, ProbeFn& probe, const std::string& method, std::string* gave_up) {
  using detail::Probe;
  Plan plan = heuristic_plan(pb);
  const double bound = plan.lower_bound;
  std::vector<Count> best = plan.items, items;
  double hi = plan.makespan;
  double lo = bound * (1.0 - 1e-9);
  bool proven = true;
  if (lo >= hi) lo = -1.0;
  Probe at_lo = lo < 0 ? Probe::Infeasible : probe(lo, nullptr);
  if (at_lo == Probe::Feasible) lo = -1.0;
  if (at_lo == Probe::TooLarge) {
    proven = false;
    lo = bound;  // still a proven bound
  }
  // Once the bracket is narrow, the best plan's makespan M is checked against the double just
  // below M (when M is optimal, one infeasible probe closes the bisection instead of ~20 creeping
  // ones), alternating with midpoints so that a slow descent still halves the bracket.
  auto narrow = [&] { return hi - lo <= 1e-6 * std::abs(hi); };
  bool hi_checked = false, last_was_check = false;
  while (proven) {
    const bool check = lo >= 0 && !hi_checked && !last_was_check && narrow();
    const double t = check ? std::nextafter(hi, lo) : lo + (hi - lo) / 2;
    if (!(t > lo && t < hi)) break;
    const Probe r = probe(t, &items);
    if (r == Probe::TooLarge) {
      proven = false;
      break;
    }
    hi_checked = hi_checked || check;
    last_was_check = false;
    if (r == Probe::Feasible) {
      const double m = makespan(pb, items);
      if (m <= hi) best = items;  // else rounding: keep the plan found so far
      hi = std::min(t, m);
      hi_checked = false;
      last_was_check = check;
    } else {
      lo = t;
    }
  }
  plan.algorithm = "exact";
  plan.items = best;
  plan.makespan = makespan(pb, plan.items);
  if (proven) {
    plan.method = method;
    plan.lower_bound = plan.makespan;
    plan.optimal = true;
  } else {
    plan.lower_bound = std::min(plan.makespan, std::max(bound, lo));
    plan.optimal = plan.makespan <= plan.lower_bound;
    if (gave_up) *gave_up = "gave up";
    plan.method = fmt::format("{}: gave up (frontier above its state budget); best plan found, gap {} to the "
                              "proven lower bound",
                              method, percent(plan.makespan, plan.lower_bound));
  }
  return plan;
}

Plan fallback(const Problem& pb, const std::string& why) {
  Plan plan = pb.all_non_decreasing() ? solve_dp(pb) : solve_dp_basic(pb);
  plan.method = fmt::format("{} (fallback: {})", plan.method, why);
  plan.algorithm = "exact";
  return plan;
}

}  // namespace

Plan heuristic_plan(const Problem& pb) {
  Plan best = solve_uniform(pb);
  bool same_slopes = true;  // linear costs: one relaxation suffices
  for (std::size_t i = 0; i < pb.size() && same_slopes; ++i)
    same_slopes = pb.comm[i].lower_slope() == pb.comm[i].asymptotic_slope() &&
                  pb.compute[i].lower_slope() == pb.compute[i].asymptotic_slope();
  for (bool minorants : {true, false}) {
    if (!minorants && same_slopes) break;
    try {
      Plan r = rounded(pb, minorants);
      if (r.makespan < best.makespan) best.items = r.items, best.makespan = r.makespan;
    } catch (const Error&) {  // degenerate relaxation (free processors): the others remain
    }
  }
  best.algorithm = "exact";
  best.method = "best of uniform and rounded rational relaxations";
  best.lower_bound = std::min(best.makespan, rational_lower_bound(pb));
  best.optimal = best.makespan <= best.lower_bound;
  return best;
}

bool exact_proves_above(const Problem& pb, double T, const ExactOptions& options) {
  using detail::Probe;
  Probe r = Probe::TooLarge;
  switch (exact_method(pb, nullptr)) {
    case Method::Greedy: {
      detail::GreedyProbe probe(pb);
      r = probe(T, nullptr);
      break;
    }
    case Method::Frontier: {
      detail::FrontierProbe probe(pb, kExactFrontierMaxStates);
      r = probe(T, nullptr);
      if (r != Probe::TooLarge) break;
      [[fallthrough]];
    }
    case Method::Window: {
      detail::WindowProbe probe(pb, options.window_layer_states, options.window_total_states);
      r = probe(T, nullptr);
      break;
    }
    case Method::None: break;
  }
  return r == Probe::Infeasible;
}

std::string exact_proof(const Problem& pb, std::string* reason) {
  switch (exact_method(pb, reason)) {
    case Method::Greedy: return "greedy";
    case Method::Frontier: return "frontier";
    case Method::Window: return "window";
    case Method::None: return "none";
  }
  return "none";
}

bool exact_fast_path_applies(const Problem& pb, std::string* reason) {
  const Method m = exact_method(pb, reason);
  return m == Method::Greedy || m == Method::Frontier;
}

Plan solve_exact(const Problem& pb, const ExactOptions& options) {
  std::string why;
  const Method m = exact_method(pb, &why);
  if (m == Method::Greedy) {
    detail::GreedyProbe probe(pb);
    return bisection(pb, probe, "bisection on the makespan + greedy fill (linear links in bandwidth order)", nullptr);
  }
  if (m == Method::Frontier) {
    detail::FrontierProbe probe(pb, kExactFrontierMaxStates);
    std::string gave_up;
    Plan plan = bisection(pb, probe,
                          "bisection on the makespan + Pareto frontier of used processors (affine links in "
                          "bandwidth order)",
                          &gave_up);
    if (gave_up.empty()) return plan;
    why = fmt::format("more than {} Pareto states", kExactFrontierMaxStates);
  }
  if (m == Method::Frontier || m == Method::Window) {
    detail::WindowProbe probe(pb, options.window_layer_states, options.window_total_states);
    std::string gave_up;
    Plan plan = bisection(pb, probe,
                          fmt::format("bisection on the makespan + Pareto frontier of (items, sending date) "
                                      "in the rational window ({})",
                                      why),
                          &gave_up);
    if (gave_up.empty() || !options.dp_fallback) return plan;
    return fallback(pb, plan.method);
  }
  if (options.dp_fallback) return fallback(pb, why);
  Plan plan = heuristic_plan(pb);
  plan.method = fmt::format("{}; not proven ({}: no exact method but Algorithm 1, --dp-fallback runs it), gap {} to "
                            "the rational lower bound",
                            plan.method, why, percent(plan.makespan, plan.lower_bound));
  return plan;
}

}  // namespace hetlb::scatter
