// hetlb simulate ring FILE.json: plan a ring redistribution (Renard, Robert, Vivien) and replay the
// schedule on SimGrid, item by item; every transfer's simulated dates beside the plan's.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/io/build_json.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/sim/ring_replay.hpp"
#include "simulate_diffusion.hpp"

namespace hetlb::cli {

namespace {
struct SimulateRingOptions {
  std::string file, format = "table";
  bool bidirectional = false;
};

void run_simulate_ring(const SimulateRingOptions& o) {
  const ring::Ring r = io::load_ring_file(o.file, o.bidirectional);
  const ring::Plan plan = ring::plan_redistribution(r);
  const sim::RingReplay rep = sim::replay_ring(r, plan);
  double deviation = 0;
  for (std::size_t k = 0; k < plan.transfers.size(); ++k)
    if (plan.transfers[k].items > 0)
      deviation = std::max({deviation, std::abs(rep.transfers[k].start - plan.transfers[k].start),
                            std::abs(rep.transfers[k].end - plan.transfers[k].end)});
  if (o.format == "json") {
    nlohmann::json transfers = nlohmann::json::array();
    for (std::size_t k = 0; k < plan.transfers.size(); ++k) {
      const ring::Transfer& t = plan.transfers[k];
      transfers.push_back({{"from", t.from}, {"to", t.to}, {"items", t.items}, {"start", t.start}, {"end", t.end},
                           {"simulated_start", rep.transfers[k].start}, {"simulated_end", rep.transfers[k].end}});
    }
    std::cout << nlohmann::json{{"algorithm", plan.algorithm}, {"time", plan.time},
                                {"simulated_time", rep.time}, {"max_deviation", deviation},
                                {"final_loads", rep.final_loads}, {"transfers", transfers},
                                {"wall_seconds", rep.wall_seconds},
                                {"build", io::build_json()}}
                     .dump(2)
              << "\n";
    return;
  }
  std::cout << fmt::format("{:>5} {:>5} {:>10} {:>12} {:>12} {:>12} {:>12}\n", "from", "to", "items", "plan start",
                           "sim. start", "plan end", "sim. end");
  for (std::size_t k = 0; k < plan.transfers.size(); ++k) {
    const ring::Transfer& t = plan.transfers[k];
    std::cout << fmt::format("{:>5} {:>5} {:>10} {:>12.6f} {:>12.6f} {:>12.6f} {:>12.6f}\n", t.from, t.to, t.items,
                             t.start, rep.transfers[k].start, t.end, rep.transfers[k].end);
  }
  std::cout << fmt::format("{}: planned {:.6f} s, simulated {:.6f} s, largest deviation {:.2e} s; final loads "
                           "equal the targets\n", plan.algorithm, plan.time, rep.time, deviation);
}
}  // namespace

void add_simulate_ring_command(CLI::App& simulate) {
  auto o = std::make_shared<SimulateRingOptions>();
  CLI::App* sub = simulate.add_subcommand("ring", "Replay a ring redistribution schedule on SimGrid");
  sub->add_option("file", o->file, "ring JSON file (hetlb ring's input)")->required();
  sub->add_flag("--bidirectional", o->bidirectional, "use both directions of every link");
  sub->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sub->callback([o] { run_simulate_ring(*o); });
}

}  // namespace hetlb::cli
