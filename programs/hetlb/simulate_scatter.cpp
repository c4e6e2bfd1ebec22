// hetlb simulate scatter PLATFORM.json: plan a scatter (RR-4770) and replay it on SimGrid; per
// processor, the simulated dates beside the planner's prediction. From a SimGrid XML platform the cost
// models are derived (host speed, route latency and bandwidth from the root) and the plan replayed on it.
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/io/build_json.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/sim/scatter_replay.hpp"
#include "hetlb/sim/scatter_replay_json.hpp"
#include "number_checks.hpp"
#include "simulate_diffusion.hpp"
#include "time_unit.hpp"

namespace hetlb::cli {

namespace {
struct SimulateScatterOptions {
  std::string platform, algorithm = "exact", order = "bandwidth", format = "table", root;
  long long items = 0;
  double flops_per_item = 1e6, bytes_per_item = 1e4;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void run_simulate_scatter(const SimulateScatterOptions& o) {
  scatter::Request req;
  req.algorithm = scatter::parse_algorithm(o.algorithm);
  req.order = scatter::parse_order_policy(o.order);
  req.items = o.items;
  scatter::Result plan;
  sim::ScatterReplay r;
  if (ends_with(o.platform, ".xml")) {
    sim::XmlScatter x = sim::replay_scatter_xml(o.platform, o.root, o.flops_per_item, o.bytes_per_item, req);
    plan = std::move(x.plan);
    r = std::move(x.replay);
  } else {
    req.root = o.root;
    const Platform platform = io::load_platform_file(o.platform);
    plan = scatter::plan_scatter(platform, req);
    r = sim::replay_scatter(plan.problem, plan.plan.items);
  }
  const double gap = sim::replay_relative_gap(plan, r);
  if (o.format == "json") {
    nlohmann::json j = sim::scatter_replay_json(o.algorithm, plan, r);
    j["build"] = io::build_json();
    std::cout << j.dump(2) << "\n";
    return;
  }
  const TimeUnit u = time_unit_for(plan.schedule.makespan);  // one unit for the table (time_unit.hpp)
  const auto t = [&](double seconds) { return time_text(seconds, u, 6); };
  std::cout << unit_line(u);
  std::cout << fmt::format("{:<16} {:>10} {:>14} {:>14} {:>14} {:>14}\n", "processor", "items", "pred. recv",
                           "sim. recv", "pred. finish", "sim. finish");
  for (std::size_t i = 0; i < r.shares.size(); ++i)
    std::cout << fmt::format("{:<16} {:>10} {:>14} {:>14} {:>14} {:>14}\n", r.shares[i].name, r.shares[i].items,
                             t(plan.schedule.shares[i].comm_end), t(r.shares[i].comm_end),
                             t(plan.schedule.shares[i].finish), t(r.shares[i].finish));
  std::cout << fmt::format("makespan: predicted {} {}, simulated {} {} (relative gap {:.2e})\n",
                           t(plan.schedule.makespan), u.name, t(r.makespan), u.name, gap);
}
}  // namespace

void add_simulate_scatter_command(CLI::App& simulate) {
  auto o = std::make_shared<SimulateScatterOptions>();
  CLI::App* sub = simulate.add_subcommand("scatter", "Replay a scatter plan (RR-4770) on SimGrid");
  sub->add_option("platform", o->platform, "platform JSON file, or a SimGrid XML platform (FILE.xml)")->required();
  sub->add_option("--root", o->root, "root processor/host (default: the file's root, or the first host)")
      ->check(non_empty("a processor or host name"));
  sub->add_option("--flops-per-item", o->flops_per_item, "XML platforms: flops to compute one item")
      ->capture_default_str();
  sub->add_option("--bytes-per-item", o->bytes_per_item, "XML platforms: bytes to send one item")
      ->capture_default_str();
  sub->add_option("--items", o->items, "number of items (default: the file's)")->check(CLI::Range(1LL, 1LL << 40));
  sub->add_option("--algorithm", o->algorithm, scatter::algorithm_choices())
      ->check(CLI::IsMember(scatter::algorithm_names()))
      ->capture_default_str();
  sub->add_option("--order", o->order, "given, bandwidth, reverse-bandwidth, best")
      ->check(CLI::IsMember({"given", "bandwidth", "reverse-bandwidth", "best"}))
      ->capture_default_str();
  sub->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  sub->callback([o] { run_simulate_scatter(*o); });
}

}  // namespace hetlb::cli
