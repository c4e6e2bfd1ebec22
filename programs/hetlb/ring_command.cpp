// hetlb ring FILE.json: plan a data redistribution on a processor ring (Renard, Robert, Vivien), print
// it as a table or JSON, optionally verify it, draw it, or verify a given schedule file.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/build_json.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "hetlb/plot/ring_gantt.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/verify.hpp"

namespace hetlb::cli {

namespace {

struct RingOptions {
  std::string file;
  bool bidirectional = false;
  std::string format = "table";
  std::string gantt;
  bool verify = false;
  std::string schedule;
  std::size_t max_rows = 200;
  std::size_t max_transfers = 2'000'000;
};

void print_table(std::ostream& out, const ring::Ring& r, const ring::Plan& p, bool verified, std::size_t max_rows) {
  out << fmt::format("ring: {} processors, {}, {}, paper hypothesis (L_i, T_i >= 1): {}\n", r.size(),
                     r.bidirectional() ? "bidirectional" : "unidirectional",
                     ring::is_homogeneous(r) ? "homogeneous" : "heterogeneous", ring::paper_hypothesis(r) ? "yes" : "no");
  out << fmt::format("algorithm: {} ({})\n", p.algorithm, p.method);
  const double gap = p.lower_bound > 0 ? p.time / p.lower_bound - 1 : 0.0;
  out << fmt::format("time: {:.9g}  lower bound: {:.9g}  optimal: {}  gap: {:.3g}%{}\n", p.time, p.lower_bound,
                     p.optimal ? "yes" : "no", 100 * gap, verified ? "  verified: yes" : "");
  std::string b;
  auto add = [&](const char* name, const std::optional<double>& v) {
    if (v) b += fmt::format("  {} {:.9g}", name, *v);
  };
  add("lemma1", p.lemma1_bound);
  add("lemma6", p.lemma6_bound);
  add("lemma12", p.lemma12_bound);
  add("system6", p.system6_bound);
  add("system6-rational", p.system6_rational);
  if (!b.empty()) out << "bounds:" << b << "\n";
  out << fmt::format("transfers: {}\n", p.transfers.size());
  out << fmt::format("  {:>8} {:>8} {:>5} {:>12} {:>14} {:>14}\n", "from", "to", "dir", "items", "start", "end");
  for (std::size_t k = 0; k < p.transfers.size() && k < max_rows; ++k) {
    const auto& t = p.transfers[k];
    out << fmt::format("  {:>8} {:>8} {:>5} {:>12} {:>14.9g} {:>14.9g}\n", t.from, t.to, t.to_succ ? "succ" : "pred",
                       t.items, t.start, t.end);
  }
  if (p.transfers.size() > max_rows)
    out << fmt::format("  ... {} more (use --format json or --rows)\n", p.transfers.size() - max_rows);
  out << "final loads:";
  for (std::size_t i = 0; i < p.final_loads.size() && i < max_rows; ++i) out << ' ' << p.final_loads[i];
  if (p.final_loads.size() > max_rows) out << " ...";
  out << "\n";
}

void run_ring(const RingOptions& o) {
  plot::check_figure_path("--gantt", o.gantt);  // refuse a bad figure before working
  const ring::Ring r = io::load_ring_file(o.file, o.bidirectional);
  if (!o.schedule.empty()) {
    const io::RingSchedule s = io::load_ring_schedule_file(o.schedule, r);
    if (const auto bad = ring::verify_schedule(r, s.transfers, s.time))
      throw Error(fmt::format("{}: invalid schedule: {}", o.schedule, *bad));
    std::cout << fmt::format("{}: valid schedule for {} ({} transfers, time {:.9g})\n", o.schedule, o.file,
                             s.transfers.size(), s.time);
    return;
  }
  const ring::Plan p = ring::plan_redistribution(r, ring::PlanOptions{o.max_transfers});
  if (o.verify) {
    if (const auto bad = ring::verify_schedule(r, p.transfers, p.time))
      throw Error(fmt::format("{}: the {} plan fails verification: {}", o.file, p.algorithm, *bad));
  }
  if (!o.gantt.empty())
    plot::render_ring_gantt(r, p, o.gantt,
                            fmt::format("{}: {}, time {:.6g} (lower bound {:.6g})", o.file, p.algorithm, p.time, p.lower_bound));
  if (o.format == "json") {
    // The plan's JSON (shared with the Python binding) and the build that made it.
    nlohmann::json j = nlohmann::json::parse(io::ring_plan_json(r, p, o.verify));
    j["build"] = io::build_json();
    std::cout << j.dump(2) << "\n";
  } else {
    print_table(std::cout, r, p, o.verify, o.max_rows);
  }
}

}  // namespace

void add_ring_command(CLI::App& app) {
  auto o = std::make_shared<RingOptions>();
  CLI::App* sub = app.add_subcommand("ring", "Plan a data redistribution on a processor ring (Renard, Robert, Vivien)");
  sub->add_option("file", o->file, "ring JSON file: loads, targets (or unbalance), succ_cost [, pred_cost]")->required();
  sub->add_flag("--bidirectional", o->bidirectional, "use both directions (each link costs the same both ways unless pred_cost is given)");
  sub->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sub->add_option("--gantt", o->gantt, "write a Gantt chart (FILE.png or FILE.svg)");
  sub->add_flag("--verify", o->verify, "check the plan with the independent verifier (exit 1 on a violation)");
  sub->add_option("--schedule", o->schedule, "verify this schedule file (JSON with transfers and time) instead of planning");
  sub->add_option("--rows", o->max_rows, "transfers listed by --format table")->check(CLI::Range(std::size_t{0}, std::size_t{1} << 40));
  sub->add_option("--max-transfers", o->max_transfers,
                  "limit on item-by-item forwarding transfers before falling back to block schedules (default 2000000)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  sub->callback([o] { run_ring(*o); });
}

}  // namespace hetlb::cli
