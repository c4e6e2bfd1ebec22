#include "hetlb/io/scatter_json.hpp"

#include <map>
#include <string>

#include "json_stream.hpp"

namespace hetlb::io {

namespace {

// Everything but the two per-processor arrays, "order" and "shares".
nlohmann::json scatter_json_head(const scatter::Result& r) {
  using nlohmann::json;
  json j = {{"algorithm", r.plan.algorithm},
            {"method", r.plan.method},
            {"items", r.problem.items},
            {"makespan", r.schedule.makespan},
            {"lower_bound", r.plan.lower_bound},
            {"optimal", r.plan.optimal},
            {"root", r.root},
            {"first_finish", r.schedule.first_finish},
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

}  // namespace

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
  json j = scatter_json_head(r);
  j["order"] = r.problem.names;
  j["shares"] = std::move(shares);
  return j;
}

void write_scatter_json(std::ostream& out, const scatter::Result& r, const nlohmann::json& extra, int indent) {
  using nlohmann::json;
  json j = scatter_json_head(r);
  j["order"] = nullptr;  // placeholders: streamed below, in their sorted places
  j["shares"] = nullptr;
  for (const auto& [key, value] : extra.items()) j[key] = value;
  const auto array = [&r](std::ostream& o, const detail::StreamedMember::Pad& pad, auto&& element) {
    if (r.problem.size() == 0) {
      o << "[]";
      return;
    }
    o << '[';
    for (std::size_t i = 0; i < r.problem.size(); ++i) {
      o << (i ? "," : "") << pad(2);
      element(o, i);
    }
    o << pad(1) << ']';
  };
  std::map<std::string, detail::StreamedMember> streamed;
  streamed["order"].write = [&](std::ostream& o, const detail::StreamedMember::Pad& pad) {
    array(o, pad, [&](std::ostream& e, std::size_t i) { e << json(r.problem.names[i]).dump(); });
  };
  streamed["shares"].write = [&](std::ostream& o, const detail::StreamedMember::Pad& pad) {
    array(o, pad, [&](std::ostream& e, std::size_t i) {
      const auto& t = r.schedule.shares[i];
      // The keys in sorted order, as the JSON tree has them.
      e << '{' << pad(3) << "\"comm_end\": " << json(t.comm_end).dump() << ',' << pad(3) << "\"comm_start\": "
        << json(t.comm_start).dump() << ',' << pad(3) << "\"finish\": " << json(t.finish).dump() << ',' << pad(3)
        << "\"idle\": " << json(t.idle).dump() << ',' << pad(3) << "\"items\": " << json(r.plan.items[i]).dump() << ','
        << pad(3) << "\"name\": " << json(r.problem.names[i]).dump() << pad(2) << '}';
    });
  };
  detail::write_json_streamed(out, j, indent, streamed);
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
