#include "scatter_output.hpp"

#include <fmt/format.h>

namespace hetlb::cli {

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
      c.push_back({{"name", rc.name}, {"transfer", rc.transfer}, {"makespan", rc.makespan}, {"total", rc.total()}});
    j["root_candidates"] = c;
  }
  return j;
}

void print_scatter(std::ostream& out, const Platform& platform, const scatter::Result& r, const std::string& format) {
  if (format == "json") {
    out << scatter_json(r).dump(2) << "\n";
    return;
  }
  if (format == "csv") {
    out << "name,items,comm_start,comm_end,finish,idle\n";
    for (std::size_t i = 0; i < r.problem.size(); ++i) {
      const auto& t = r.schedule.shares[i];
      out << fmt::format("{},{},{:.9g},{:.9g},{:.9g},{:.9g}\n", r.problem.names[i], r.plan.items[i], t.comm_start,
                         t.comm_end, t.finish, t.idle);
    }
    return;
  }
  out << fmt::format("platform {}: {} processors, {} items, root {}\n", platform.name, r.problem.size(), r.problem.items,
                     r.root);
  out << fmt::format("algorithm {}: {}\n\n", r.plan.algorithm, r.plan.method);
  out << fmt::format("{:>3}  {:<16} {:>12} {:>12} {:>12} {:>12} {:>10}\n", "#", "processor", "items", "recv start",
                     "recv end", "finish", "idle");
  for (std::size_t i = 0; i < r.problem.size(); ++i) {
    const auto& t = r.schedule.shares[i];
    out << fmt::format("{:>3}  {:<16} {:>12} {:>12.3f} {:>12.3f} {:>12.3f} {:>10.3f}\n", i + 1, r.problem.names[i],
                       r.plan.items[i], t.comm_start, t.comm_end, t.finish, t.idle);
  }
  out << fmt::format("\nmakespan     {:.6f} s\n", r.schedule.makespan);
  out << fmt::format("lower bound  {:.6f} s{}\n", r.plan.lower_bound, r.plan.optimal ? "  (optimal: proven)" : "");
  if (r.plan.rational_optimum)
    out << fmt::format("rational     {:.6f} s, guarantee of eq. (4): makespan <= {:.6f} s\n", *r.plan.rational_optimum,
                       *r.plan.rational_optimum + r.plan.guarantee.value_or(0.0));
  out << fmt::format("finish       first {:.3f} s, last {:.3f} s (imbalance {:.3f} s)\n", r.schedule.first_finish,
                     r.schedule.last_finish, r.schedule.last_finish - r.schedule.first_finish);
  if (r.order_search) {
    const auto& o = *r.order_search;
    out << fmt::format("\nbest order   {:.6f} s{}, bandwidth order {:.6f} s, lower bound over every order {:.6f} s\n",
                       o.makespan, o.proven ? " (proven best)" : "", o.bandwidth_makespan, o.lower_bound);
    out << fmt::format("order search {}\n", o.method);
  }
  if (!r.root_candidates.empty()) {
    out << "\nroot choice (Section 3.4):\n";
    for (const auto& c : r.root_candidates)
      out << fmt::format("  {:<16} transfer {:>12.3f} + scatter {:>12.3f} = {:>12.3f}{}\n", c.name, c.transfer,
                         c.makespan, c.total(), c.name == r.root ? "  <- chosen" : "");
  }
  out << fmt::format("solve time   {:.6f} s\n", r.solve_seconds);
}

}  // namespace hetlb::cli
