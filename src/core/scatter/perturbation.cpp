// Robustness of a plan to cost errors (see perturbation.hpp): Monte Carlo on per-processor cost
// factors, equations (1)-(2) for the fixed plan, the exact planner for the re-plan.
#include "hetlb/scatter/perturbation.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/exact.hpp"

namespace hetlb::scatter {

CostFunction scaled(const CostFunction& f, double k) {
  switch (f.kind()) {
    case CostFunction::Kind::Linear: return CostFunction::linear(k * f.per_item());
    case CostFunction::Kind::Affine: return CostFunction::affine(k * f.latency(), k * f.per_item());
    case CostFunction::Kind::Table: {
      std::vector<std::pair<double, double>> pts = f.points();
      for (auto& pt : pts) pt.second *= k;
      return CostFunction::table(std::move(pts));
    }
  }
  return f;
}

Distribution distribution(std::vector<double> v) {
  Distribution d;
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto quantile = [&](double q) { return v[static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1]; };
  d.min = v.front();
  d.max = v.back();
  d.mean = sum / static_cast<double>(v.size());
  d.median = quantile(0.5);
  d.p90 = quantile(0.9);
  return d;
}

PerturbationReport perturb_plan(const Platform& pf, const Request& request, const Result& nominal,
                                const PerturbationRequest& pr) {
  if (!(pr.percent >= 0.0 && pr.percent < 100.0))
    throw Error(fmt::format("perturbation {}%: expected a percentage in [0, 100)", pr.percent));
  if (pr.samples <= 0 || pr.samples > kMaxPerturbationSamples)
    throw Error(fmt::format("samples = {}: expected 1 to {} samples", pr.samples, kMaxPerturbationSamples));
  const std::size_t p = pf.processors.size();
  std::vector<CostFactors> fixed = pr.fixed.empty() ? std::vector<CostFactors>(p) : pr.fixed;
  if (fixed.size() != p) throw Error("perturbation: one pair of cost factors per processor expected");
  for (std::size_t i = 0; i < p; ++i)
    if (!(fixed[i].compute > 0 && fixed[i].comm > 0 && std::isfinite(fixed[i].compute) && std::isfinite(fixed[i].comm)))
      throw Error(fmt::format("factor of {}: expected positive finite factors", pf.processors[i].name));
  std::mt19937_64 rng(pr.seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Request replan = request;
  replan.algorithm = Algorithm::Exact;
  replan.items = nominal.problem.items;
  if (!replan.root.empty() && replan.root == "auto") replan.root = nominal.root;
  PerturbationReport rep;
  rep.nominal = nominal.schedule.makespan;
  std::vector<double> plan, again, regret;
  for (int s = 0; s < pr.samples; ++s) {
    Platform real = pf;
    for (std::size_t i = 0; i < p; ++i) {
      const double fc = fixed[i].compute * (1.0 + u(rng) * pr.percent / 100.0);
      const double fl = fixed[i].comm * (1.0 + u(rng) * pr.percent / 100.0);
      real.processors[i].compute = scaled(pf.processors[i].compute, fc);
      real.processors[i].comm = scaled(pf.processors[i].comm, fl);
    }
    const Problem same_order = make_problem(real, nominal.problem.platform_index, nominal.problem.items);
    PerturbationSample sample;
    sample.plan = makespan(same_order, nominal.plan.items);
    // Had the planner known: the exact optimum in the plan's order, or re-planned with the policy.
    sample.replanned = std::min(solve_exact(same_order, request.exact).makespan,
                                plan_scatter(real, replan).schedule.makespan);
    rep.samples.push_back(sample);
    if (pr.on_sample) pr.on_sample(s + 1);
    plan.push_back(sample.plan);
    again.push_back(sample.replanned);
    regret.push_back(sample.plan - sample.replanned);
  }
  rep.plan = distribution(plan);
  rep.replanned = distribution(again);
  rep.regret = distribution(regret);
  return rep;
}

}  // namespace hetlb::scatter
