// hetlb scatter PLATFORM.json: one plan, as a table, JSON or CSV, and optionally a Gantt chart.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "hetlb/plot/scatter_gantt.hpp"
#include "hetlb/scatter/solve.hpp"
#include "scatter_output.hpp"

namespace hetlb::cli {

namespace {
struct ScatterOptions {
  std::string platform;
  long long items = 0;
  std::string algorithm = "exact";
  std::string order = "bandwidth";
  std::string root;
  std::string format = "table";
  std::string gantt;
};

void run(const ScatterOptions& o) {
  scatter::Request req;
  req.algorithm = scatter::parse_algorithm(o.algorithm);
  req.order = scatter::parse_order_policy(o.order);
  req.root = o.root;
  req.items = o.items;
  if (!o.gantt.empty()) plot::terminal_for(o.gantt);  // refuse a bad figure name before working
  const Platform platform = io::load_platform_file(o.platform);
  if (req.items == 0 && platform.items <= 0)
    throw Error(fmt::format("{}: no items: give \"items\" in the file or --items N", o.platform));
  const scatter::Result result = scatter::plan_scatter(platform, req);
  if (!o.gantt.empty())
    plot::render_scatter_gantt(result, o.gantt,
                               fmt::format("{}: {} ({} order), makespan {:.2f} s",
                                           platform.name.empty() ? o.platform : platform.name, o.algorithm,
                                           o.order, result.schedule.makespan));
  print_scatter(std::cout, platform, result, o.format);
}
}  // namespace

void add_scatter_command(CLI::App& app) {
  auto o = std::make_shared<ScatterOptions>();
  CLI::App* sub = app.add_subcommand("scatter", "Plan a load-balanced scatter (RR-4770) on a platform file");
  sub->add_option("platform", o->platform, "platform JSON file")->required();
  sub->add_option("--items", o->items, "number of items (default: the file's \"items\")")
      ->check(CLI::Range(1LL, 1LL << 62));
  sub->add_option("--algorithm", o->algorithm, "uniform, dp-basic, dp, exact, lp, closed-form")
      ->check(CLI::IsMember({"uniform", "dp-basic", "dp", "exact", "lp", "closed-form"}));
  sub->add_option("--order", o->order, "given, bandwidth, reverse-bandwidth, best")
      ->check(CLI::IsMember({"given", "bandwidth", "reverse-bandwidth", "best"}));
  sub->add_option("--root", o->root, "root processor name, or auto (Section 3.4)");
  sub->add_option("--format", o->format, "table, json or csv")->check(CLI::IsMember({"table", "json", "csv"}));
  sub->add_option("--gantt", o->gantt, "write a Gantt chart (FILE.png or FILE.svg)");
  sub->callback([o] { run(*o); });
}

}  // namespace hetlb::cli
