#include "hetlb/io/build_json.hpp"
#include "scatter_output.hpp"

#include <fmt/format.h>

#include "hetlb/csv.hpp"
#include "time_unit.hpp"

namespace hetlb::cli {

std::string platform_heading(const Platform& platform) {
  return platform.name.empty() ? "platform" : "platform " + platform.name;
}

void print_scatter(std::ostream& out, const Platform& platform, const scatter::Result& r, const std::string& format) {
  if (format == "json") {
    io::write_scatter_json(out, r, {{"build", io::build_json()}});
    out << "\n";
    return;
  }
  if (format == "csv") {
    out << "name,items,comm_start,comm_end,finish,idle\n";
    for (std::size_t i = 0; i < r.problem.size(); ++i) {
      const auto& t = r.schedule.shares[i];
      out << fmt::format("{},{},{:.9g},{:.9g},{:.9g},{:.9g}\n", csv_cell(r.problem.names[i]), r.plan.items[i], t.comm_start,
                         t.comm_end, t.finish, t.idle);
    }
    return;
  }
  out << fmt::format("{}: {} processors, {} items, root {}\n", platform_heading(platform), r.problem.size(), r.problem.items,
                     r.root);
  out << fmt::format("algorithm {}: {}\n\n", r.plan.algorithm, r.plan.method);
  // Times in one unit, the makespan's (time_unit.hpp); the solve time is wall time, in seconds.
  const TimeUnit u = time_unit_for(r.schedule.makespan);
  const auto t3 = [&](double seconds) { return time_text(seconds, u); };
  const auto t6 = [&](double seconds) { return fmt::format("{} {}", time_text(seconds, u, 6), u.name); };
  out << unit_line(u);
  out << fmt::format("{:>3}  {:<16} {:>12} {:>12} {:>12} {:>12} {:>10}\n", "#", "processor", "items", "recv start",
                     "recv end", "finish", "idle");
  for (std::size_t i = 0; i < r.problem.size(); ++i) {
    const auto& t = r.schedule.shares[i];
    out << fmt::format("{:>3}  {:<16} {:>12} {:>12} {:>12} {:>12} {:>10}\n", i + 1, r.problem.names[i],
                       r.plan.items[i], t3(t.comm_start), t3(t.comm_end), t3(t.finish), t3(t.idle));
  }
  out << fmt::format("\nmakespan     {}\n", t6(r.schedule.makespan));
  out << fmt::format("lower bound  {}{}\n", t6(r.plan.lower_bound), r.plan.optimal ? "  (optimal: proven)" : "");
  if (r.plan.rational_optimum)
    out << fmt::format("rational     {}, guarantee of eq. (4): makespan <= {}\n", t6(*r.plan.rational_optimum),
                       t6(*r.plan.rational_optimum + r.plan.guarantee.value_or(0.0)));
  out << fmt::format("finish       first {} {}, last {} {} (imbalance {} {})\n", t3(r.schedule.first_finish), u.name,
                     t3(r.schedule.last_finish), u.name, t3(r.schedule.last_finish - r.schedule.first_finish), u.name);
  if (r.order_search) {
    const auto& o = *r.order_search;
    out << fmt::format("\nbest order   {}{}, bandwidth order {}, lower bound over every order {}\n", t6(o.makespan),
                       o.proven ? " (proven best)" : "", t6(o.bandwidth_makespan), t6(o.lower_bound));
    out << fmt::format("order search {}\n", o.method);
  }
  if (!r.root_candidates.empty()) {
    out << fmt::format("\nroot choice (Section 3.4){}:\n", u.exponent != 0 ? ", in " + std::string(u.name) : "");
    for (const auto& c : r.root_candidates)
      out << fmt::format("  {:<16} transfer {:>12} + scatter {:>12} {} {:>12}{}\n", c.name, t3(c.transfer),
                         t3(c.makespan), c.bound_only ? ">=" : "= ", t3(c.total()),
                         c.name == r.root ? "  <- chosen" : c.bound_only ? "  (lower bound: not solved)" : "");
  }
  out << fmt::format("solve time   {:.6f} s\n", r.solve_seconds);
}

}  // namespace hetlb::cli
