// The scatter planners, one line each (algorithm_registry.hpp).
#include "hetlb/scatter/algorithm_registry.hpp"

#include <algorithm>

#include "hetlb/choices_text.hpp"
#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/guaranteed_heuristic.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/uniform.hpp"

namespace hetlb::scatter {

namespace {

Plan run_uniform(const Problem& pb, const ExactOptions&) {
  Plan plan = solve_uniform(pb);
  plan.lower_bound = std::min(plan.makespan, rational_lower_bound(pb));
  return plan;
}
Plan run_dp_basic(const Problem& pb, const ExactOptions&) { return solve_dp_basic(pb); }
Plan run_dp(const Problem& pb, const ExactOptions&) { return solve_dp(pb); }
Plan run_exact(const Problem& pb, const ExactOptions& exact) { return solve_exact(pb, exact); }
Plan run_lp(const Problem& pb, const ExactOptions&) { return solve_lp(pb); }
Plan run_closed_form(const Problem& pb, const ExactOptions&) { return solve_closed_form(pb); }

}  // namespace

const std::vector<AlgorithmEntry>& scatter_algorithms() {
  static const std::vector<AlgorithmEntry> all{
      {Algorithm::Uniform, "uniform", "n/p items each, what MPI_Scatter does (Section 2.2)", true, run_uniform},
      {Algorithm::DpBasic, "dp-basic", "Algorithm 1, the basic dynamic program: any costs, O(p n^2)", false,
       run_dp_basic},
      {Algorithm::Dp, "dp", "Algorithm 2, the optimized dynamic program: non-decreasing costs", false, run_dp},
      {Algorithm::Exact, "exact", "the integer optimum for the send order (bisection on the makespan)", true,
       run_exact},
      {Algorithm::Lp, "lp", "linear program (3) for affine costs, rounded with the guarantee of (4)", true, run_lp},
      {Algorithm::ClosedForm, "closed-form", "Theorems 1-2 for linear costs, rounded with the guarantee of (4)",
       true, run_closed_form},
  };
  return all;
}

const AlgorithmEntry& algorithm_entry(Algorithm id) {
  for (const AlgorithmEntry& e : scatter_algorithms())
    if (e.id == id) return e;
  throw Error("scatter algorithm without a registry entry");
}

std::string algorithm_choices() { return choices_text(algorithm_names()); }

const AlgorithmEntry& find_algorithm(const std::string& name) {
  for (const AlgorithmEntry& e : scatter_algorithms())
    if (e.name == name) return e;
  throw Error("algorithm '" + name + "': expected " + algorithm_choices());
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const AlgorithmEntry& e : scatter_algorithms()) names.push_back(e.name);
  return names;
}

std::vector<std::string> default_compared_algorithms() {
  std::vector<std::string> names;
  for (const AlgorithmEntry& e : scatter_algorithms())
    if (e.compared_by_default) names.push_back(e.name);
  return names;
}

}  // namespace hetlb::scatter
