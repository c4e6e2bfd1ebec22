// plan_scatter with a weight per item (weighted.hpp): send order and root as in plan_scatter
// (RR-4770, Sections 3.4 and 4), the contiguous optimum (Theorem W1) or the any-layout fill
// (Theorem W2) for that order. Unit weights are RR-4770's model: plan_scatter's plan is returned.
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/root_choice.hpp"
#include "hetlb/scatter/uniform.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::scatter {

namespace {

WeightedPlan from_counts(const Problem& pb, const WeightedItems& it, const Plan& counted, Layout layout) {
  WeightedPlan w;
  w.layout = layout;
  w.items = counted.items;
  w.owner = contiguous_owner(w.items);
  Count start = 0;
  for (std::size_t i = 0; i < w.items.size(); ++i) {
    w.first.push_back(start);
    double sum = 0;
    for (Count k = start; k < start + w.items[i]; ++k) sum += it.work[static_cast<std::size_t>(k)];
    w.work.push_back(sum);
    start += w.items[i];
  }
  w.makespan = evaluate_weighted(pb, it, w.owner).makespan;
  w.contiguous_makespan = w.makespan;
  w.lower_bound = std::min(counted.lower_bound, w.makespan);
  w.optimal = counted.optimal;
  w.method = counted.method;
  if (layout == Layout::Contiguous) w.owner.clear();
  return w;
}

WeightedResult plan_for_root(const Platform& pf, const Request& rq, const WeightedItems& it, Layout layout,
                             std::size_t root) {
  const std::vector<std::size_t> order =
      rq.order_list.empty() ? send_order(pf, root, rq.order) : explicit_order(pf, root, rq.order_list);
  WeightedResult r;
  r.result.problem = make_problem(pf, order, it.count());
  const Problem& pb = r.result.problem;
  if (rq.algorithm == Algorithm::Uniform) {
    r.weighted = from_counts(pb, it, solve_uniform(pb), layout);
    r.weighted.method = "uniform counts, contiguous ranges";
  } else {
    r.weighted = layout == Layout::Contiguous ? solve_weighted_contiguous(pb, it) : solve_weighted_any(pb, it);
  }
  const WeightedPlan& w = r.weighted;
  r.result.plan.algorithm = to_string(rq.algorithm);
  r.result.plan.method = w.method;
  r.result.plan.items = w.items;
  r.result.plan.makespan = w.makespan;
  r.result.plan.lower_bound = w.lower_bound;
  r.result.plan.optimal = w.optimal;
  r.result.schedule =
      evaluate_weighted(pb, it, w.owner.empty() ? contiguous_owner(w.items) : w.owner);
  r.result.root = pf.processors[root].name;
  double bytes = 0;
  for (std::size_t k = 0; k < it.work.size(); ++k) bytes += it.size.empty() ? 1.0 : it.size[k];
  r.result.transfer = root_transfer_cost(pf, root, static_cast<Count>(std::ceil(bytes)));
  return r;
}

}  // namespace

WeightedResult plan_scatter_weighted(const Platform& pf, const Request& rq, const WeightedItems& it, Layout layout) {
  const auto start = std::chrono::steady_clock::now();
  it.check();
  if (rq.items > 0 && rq.items != it.count())
    throw Error(fmt::format("items = {}: the weights give {} items; leave the count out or make them agree", rq.items,
                            it.count()));
  if (rq.order == OrderPolicy::Best && rq.order_list.empty())
    throw Error("order best: not available with weights; give given, bandwidth, reverse-bandwidth or a list");
  if (rq.algorithm != Algorithm::Exact && rq.algorithm != Algorithm::Uniform)
    throw Error(fmt::format("algorithm {}: with weights, expected exact (the optimum of the layout) or uniform",
                            to_string(rq.algorithm)));
  WeightedResult out;
  if (it.unit()) {  // RR-4770's own model: exactly plan_scatter's plan
    Request counted = rq;
    counted.items = it.count();
    out.result = plan_scatter(pf, counted);
    out.weighted = from_counts(out.result.problem, it, out.result.plan, layout);
    out.weighted.lower_bound = out.result.plan.lower_bound;
    return out;
  }
  if (rq.root == "auto") {
    if (!rq.order_list.empty()) throw Error("root auto: an explicit order names the root's place; give --root NAME with it");
    std::vector<RootCandidate> candidates;
    double best = 0;
    for (std::size_t r = 0; r < pf.processors.size(); ++r) {
      WeightedResult w = plan_for_root(pf, rq, it, layout, r);
      candidates.push_back({w.result.root, w.result.transfer, w.result.plan.makespan, false});
      const double total = w.result.transfer + w.result.plan.makespan;
      if (r == 0 || total < best) {
        best = total;
        out = std::move(w);
      }
    }
    out.result.root_candidates = std::move(candidates);
  } else {
    out = plan_for_root(pf, rq, it, layout, rq.root.empty() ? pf.root : pf.index_of(rq.root));
  }
  out.result.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace hetlb::scatter
