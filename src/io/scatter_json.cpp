#include "hetlb/io/scatter_json.hpp"

namespace hetlb::io {

nlohmann::json scatter_json(const scatter::Result& r) {
  using nlohmann::json;
  json shares = json::array();
  for (std::size_t i = 0; i < r.problem.size(); ++i) {
    const auto& t = r.schedule.shares[i];
    shares.push_back({{"name", r.problem.names[i]},
                      {"items", r.plan.items[i]},
                      {"comm_start", t.comm_start},
                      {"comm_end", t.comm_end},
                      {"finish", t.finish},
                      {"idle", t.idle}});
  }
  json j = {{"algorithm", r.plan.algorithm},
            {"method", r.plan.method},
            {"items", r.problem.items},
            {"makespan", r.schedule.makespan},
            {"lower_bound", r.plan.lower_bound},
            {"optimal", r.plan.optimal},
            {"order", r.problem.names},
            {"root", r.root},
            {"first_finish", r.schedule.first_finish},
            {"shares", shares},
            {"solve_seconds", r.solve_seconds}};
  if (r.plan.rational_optimum) j["rational_optimum"] = *r.plan.rational_optimum;
  if (r.plan.guarantee) j["guarantee"] = *r.plan.guarantee;
  if (r.transfer > 0) {
    j["transfer"] = r.transfer;
    j["total_time"] = r.transfer + r.schedule.makespan;
  }
  if (r.order_search) {
    const auto& o = *r.order_search;
    j["order_search"] = {{"makespan", o.makespan},
                         {"bandwidth_makespan", o.bandwidth_makespan},
                         {"lower_bound", o.lower_bound},
                         {"proven", o.proven},
                         {"evaluations", o.evaluations},
                         {"estimates", o.estimates},
                         {"method", o.method}};
  }
  if (!r.root_candidates.empty()) {
    json c = json::array();
    for (const auto& rc : r.root_candidates)
      c.push_back({{"name", rc.name}, {"transfer", rc.transfer}, {"makespan", rc.makespan}, {"total", rc.total()},
                   {"bound_only", rc.bound_only}});  // bound_only: makespan is a lower bound, not solved
    j["root_candidates"] = c;
  }
  return j;
}

nlohmann::json weighted_scatter_json(const scatter::WeightedResult& wr) {
  nlohmann::json j = scatter_json(wr.result);
  const scatter::WeightedPlan& w = wr.weighted;
  j["layout"] = scatter::to_string(w.layout);
  for (std::size_t i = 0; i < w.items.size(); ++i) {
    j["shares"][i]["work"] = w.work[i];
    if (w.layout == scatter::Layout::Contiguous) j["shares"][i]["first"] = w.first[i];
  }
  if (w.layout == scatter::Layout::Any) {
    j["assignment"] = w.owner;
    j["contiguous_makespan"] = w.contiguous_makespan;
  }
  if (w.guarantee) j["guarantee"] = *w.guarantee;
  return j;
}

}  // namespace hetlb::io
