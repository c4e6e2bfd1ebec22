// hetlb compare PLATFORM.json: every algorithm and send order side by side.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hetlb/csv.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/problem.hpp"
#include "hetlb/scatter/solve.hpp"
#include "number_checks.hpp"
#include "scatter_output.hpp"
#include "time_unit.hpp"

namespace hetlb::cli {

namespace {
struct CompareOptions {
  std::string platform;
  long long items = 0;
  std::string root;
  // The dynamic programs (minutes on large n) are opt-in rows: --algorithms ... dp dp-basic.
  std::vector<std::string> algorithms = scatter::default_compared_algorithms();
  std::vector<std::string> orders{"bandwidth", "reverse-bandwidth"};
  std::string format = "table";
};

struct Row {
  std::string algorithm, order, note;
  bool ok = false;
  double makespan = 0, lower_bound = 0, first = 0, last = 0, seconds = 0;
  bool optimal = false;
};

void run_compare(const CompareOptions& o) {
  const Platform platform = io::load_platform_file(o.platform);
  if (o.items == 0 && platform.items <= 0)
    throw Error(fmt::format("{}: no items: give \"items\" in the file or --items N", o.platform));
  // A platform no plan can hold (an unknown root, times beyond the largest double) is refused once,
  // before the table; a refusal of one algorithm only is a row of it.
  if (o.root != "auto") {
    const std::size_t root = o.root.empty() ? platform.root : platform.index_of(o.root);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < platform.processors.size(); ++i)
      if (i != root) order.push_back(i);
    order.push_back(root);
    try {
      scatter::make_problem(platform, order, o.items ? o.items : platform.items);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", o.platform, e.what()));
    }
  }
  std::vector<Row> rows;
  const std::size_t total = o.algorithms.size() * o.orders.size();
  std::map<std::string, double> best_bound;  // per order
  for (const std::string& order : o.orders) {
    for (const std::string& algo : o.algorithms) {
      Row row{algo, order, ""};
      std::cerr << fmt::format("[{}/{}] {} with the {} order...", rows.size() + 1, total, algo, order) << std::flush;
      scatter::Request req;
      req.algorithm = scatter::parse_algorithm(algo);
      req.order = scatter::parse_order_policy(order);
      req.root = o.root;
      req.items = o.items;
      try {
        const scatter::Result r = scatter::plan_scatter(platform, req);
        row.ok = true;
        row.makespan = r.schedule.makespan;
        row.lower_bound = r.plan.lower_bound;
        row.optimal = r.plan.optimal;
        row.first = r.schedule.first_finish;
        row.last = r.schedule.last_finish;
        row.seconds = r.solve_seconds;
        row.note = r.plan.method;
        best_bound[order] = std::max(best_bound[order], row.lower_bound);
        const TimeUnit u = time_unit_for(row.makespan);
        std::cerr << fmt::format(" {} {} in {:.3f} s\n", time_text(row.makespan, u), u.name, row.seconds);
      } catch (const Error& e) {
        row.note = std::string("refused: ") + e.what();
        std::cerr << " refused\n";
      }
      rows.push_back(row);
    }
  }
  auto gap = [&](const Row& r) {
    const double lb = best_bound[r.order];
    return lb > 0 ? 100.0 * (r.makespan - lb) / lb : 0.0;
  };
  if (o.format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const Row& r : rows) {
      nlohmann::json e = {{"algorithm", r.algorithm}, {"order", r.order}, {"ok", r.ok}, {"note", r.note}};
      if (r.ok) {
        e["makespan"] = r.makespan;
        e["lower_bound"] = best_bound[r.order];
        e["gap_percent"] = gap(r);
        e["imbalance"] = r.last - r.first;
        e["optimal"] = r.optimal;
        e["solve_seconds"] = r.seconds;
      }
      j.push_back(e);
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (o.format == "csv") {
    std::cout << "algorithm,order,makespan,lower_bound,gap_percent,imbalance,optimal,solve_seconds,note\n";
    for (const Row& r : rows) {
      if (r.ok)
        std::cout << fmt::format("{},{},{:.9g},{:.9g},{:.6g},{:.9g},{},{:.6g},{}\n", csv_cell(r.algorithm),
                                 csv_cell(r.order), r.makespan, best_bound[r.order], gap(r), r.last - r.first,
                                 r.optimal, r.seconds, csv_cell(r.note));
      else
        std::cout << fmt::format("{},{},,,,,,,{}\n", csv_cell(r.algorithm), csv_cell(r.order), csv_cell(r.note));
    }
    return;
  }
  // Plan times in one unit, the best makespan's (time_unit.hpp); solve times are wall seconds.
  double best = 0;
  for (const Row& r : rows)
    if (r.ok && (best == 0 || r.makespan < best)) best = r.makespan;
  const TimeUnit u = time_unit_for(best);
  std::cout << fmt::format("{}: {} processors, {} items{}\n\n", platform_heading(platform),
                           platform.processors.size(), o.items ? o.items : platform.items,
                           u.exponent != 0 ? " (makespans in " + std::string(u.name) + ")" : "");
  std::cout << fmt::format("{:<12} {:<18} {:>12} {:>12} {:>9} {:>10} {:>10}  {}\n", "algorithm", "order", "makespan",
                           "lower bound", "gap %", "imbalance", "time (s)", "note");
  for (const Row& r : rows) {
    if (r.ok)
      std::cout << fmt::format("{:<12} {:<18} {:>12} {:>12} {:>9.4f} {:>10} {:>10.4f}  {}{}\n", r.algorithm, r.order,
                               time_text(r.makespan, u), time_text(best_bound[r.order], u), gap(r),
                               time_text(r.last - r.first, u), r.seconds, r.optimal ? "optimal; " : "", r.note);
    else
      std::cout << fmt::format("{:<12} {:<18} {:>12} {:>12} {:>9} {:>10} {:>10}  {}\n", r.algorithm, r.order, "-", "-",
                               "-", "-", "-", r.note);
  }
}
}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* sub = app.add_subcommand("compare", "Compare every scatter algorithm and send order on a platform");
  sub->add_option("platform", o->platform, "platform JSON file")->required();
  sub->add_option("--items", o->items, "number of items (default: the file's \"items\")")
      ->check(CLI::Range(1LL, 1LL << 62));
  sub->add_option("--root", o->root, "root processor name, or auto (Section 3.4)")
      ->check(non_empty("a processor name or auto"));
  sub->add_option("--algorithms", o->algorithms,
                  fmt::format("algorithms to run, of {} (default: {})", scatter::algorithm_choices(),
                              fmt::join(scatter::default_compared_algorithms(), " ")))
      ->check(CLI::IsMember(scatter::algorithm_names()));
  sub->add_option("--orders", o->orders, "orders to try (default: bandwidth reverse-bandwidth, the paper's two)")
      ->check(CLI::IsMember({"given", "bandwidth", "reverse-bandwidth", "best"}));
  sub->add_option("--format", o->format, "table, json or csv")->check(CLI::IsMember({"table", "json", "csv"}));
  sub->callback([o] { run_compare(*o); });
}

}  // namespace hetlb::cli
