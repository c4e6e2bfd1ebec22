// Replay of a scatter plan (RR-4770, Section 3.1, equation (1)) on a SimGrid platform built from
// the plan's own cost model.
#include "hetlb/sim/scatter_replay.hpp"

#include <chrono>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "engine.hpp"
#include "hetlb/error.hpp"
#include "platform_loading.hpp"

namespace hetlb::sim {

namespace s4u = simgrid::s4u;

std::string scatter_platform_xml(const scatter::Problem& problem) {
  const std::size_t p = problem.size();
  std::string xml =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n<zone id=\"scatter\" routing=\"Full\">\n";
  for (std::size_t i = 0; i < p; ++i) xml += fmt::format("  <host id=\"p{}\" speed=\"1f\"/>\n", i);
  for (std::size_t i = 0; i + 1 < p; ++i) {
    const CostFunction& c = problem.comm[i];
    if (!c.is_affine())
      throw Error(fmt::format("simulate scatter: {}: communication cost is a table; expected linear or affine",
                              problem.names[i]));
    const double bw = c.per_item() > 0 ? 1.0 / c.per_item() : 1e12;
    xml += fmt::format("  <link id=\"l{}\" bandwidth=\"{:.17g}Bps\" latency=\"{:.17g}s\"/>\n", i, bw, c.latency());
  }
  for (std::size_t i = 0; i + 1 < p; ++i)  // the DTD wants every link before the routes
    xml += fmt::format("  <route src=\"p{}\" dst=\"p{}\"><link_ctn id=\"l{}\"/></route>\n", p - 1, i, i);
  return xml + "</zone>\n</platform>\n";
}

ScatterReplay replay_scatter(const scatter::Problem& problem, const std::vector<Count>& items) {
  const std::size_t p = problem.size();
  if (items.size() != p) throw Error(fmt::format("simulate scatter: {} shares for {} processors", items.size(), p));
  const std::string xml = scatter_platform_xml(problem);
  // CM02 without factors or TCP window, no reverse (ack) traffic: a lone transfer of x bytes on a
  // link takes exactly latency + x / bandwidth.
  auto engine = detail::make_engine({"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                             "--cfg=network/TCP-gamma:1e30", "--cfg=network/latency-factor:1",
                             "--cfg=network/bandwidth-factor:1", "--cfg=network/weight-S:0"});
  detail::load_platform_text(*engine, xml);
  ScatterReplay r;
  r.shares.resize(p);
  static char payload = 0;
  for (std::size_t i = 0; i < p; ++i) {
    r.shares[i].name = problem.names[i];
    r.shares[i].items = items[i];
  }
  auto* root = s4u::Host::by_name(fmt::format("p{}", p - 1));
  s4u::Actor::create("root", root, [&] {
    for (std::size_t i = 0; i + 1 < p; ++i) {
      if (items[i] <= 0) continue;
      r.shares[i].comm_start = s4u::Engine::get_clock();
      const double bytes = problem.comm[i].per_item() > 0 ? static_cast<double>(items[i]) : 0.0;
      s4u::Mailbox::by_name(fmt::format("share-{}", i))->put(&payload, static_cast<uint64_t>(bytes));
    }
    ReplayedShare& me = r.shares[p - 1];
    me.comm_start = me.comm_end = s4u::Engine::get_clock();
    if (items[p - 1] > 0) s4u::this_actor::execute(problem.compute[p - 1](items[p - 1]));
    me.finish = s4u::Engine::get_clock();
  });
  for (std::size_t i = 0; i + 1 < p; ++i) {
    if (items[i] <= 0) continue;
    s4u::Actor::create(fmt::format("worker-{}", i), s4u::Host::by_name(fmt::format("p{}", i)), [&, i] {
      s4u::Mailbox::by_name(fmt::format("share-{}", i))->get<char>();
      r.shares[i].comm_end = s4u::Engine::get_clock();
      s4u::this_actor::execute(problem.compute[i](items[i]));
      r.shares[i].finish = s4u::Engine::get_clock();
    });
  }
  const auto start = std::chrono::steady_clock::now();
  engine->run();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& s : r.shares) r.makespan = std::max(r.makespan, s.finish);
  return r;
}

}  // namespace hetlb::sim
