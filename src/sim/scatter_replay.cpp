// Replay of a scatter plan (RR-4770, Section 3.1, equation (1)) on a SimGrid platform built from
// the plan's own cost model.
#include "hetlb/sim/scatter_replay.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

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

namespace {
// CM02 without factors or TCP window, no reverse (ack) traffic: a lone transfer of x bytes on a
// route takes exactly its latency + x / bandwidth.
const std::vector<std::string> kExactNetwork{"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                                             "--cfg=network/TCP-gamma:1e30", "--cfg=network/latency-factor:1",
                                             "--cfg=network/bandwidth-factor:1", "--cfg=network/weight-S:0"};

// Runs the plan on `host` (send order, root last): share i is bytes(i) bytes, then Tcomp_i(x) seconds
// of work at the host's speed.
ScatterReplay run_replay(s4u::Engine& engine, const scatter::Problem& problem, const std::vector<Count>& items,
                         const std::vector<s4u::Host*>& host, const std::function<double(std::size_t)>& bytes) {
  const std::size_t p = problem.size();
  if (items.size() != p) throw Error(fmt::format("simulate scatter: {} shares for {} processors", items.size(), p));
  ScatterReplay r;
  r.shares.resize(p);
  static char payload = 0;
  for (std::size_t i = 0; i < p; ++i) {
    r.shares[i].name = problem.names[i];
    r.shares[i].items = items[i];
  }
  auto work = [&](std::size_t i) { return problem.compute[i](items[i]) * host[i]->get_speed(); };
  s4u::Actor::create("root", host[p - 1], [&] {
    for (std::size_t i = 0; i + 1 < p; ++i) {
      if (items[i] <= 0) continue;
      r.shares[i].comm_start = s4u::Engine::get_clock();
      s4u::Mailbox::by_name(fmt::format("share-{}", i))->put(&payload, static_cast<uint64_t>(bytes(i)));
    }
    ReplayedShare& me = r.shares[p - 1];
    me.comm_start = me.comm_end = s4u::Engine::get_clock();
    if (items[p - 1] > 0) s4u::this_actor::execute(work(p - 1));
    me.finish = s4u::Engine::get_clock();
  });
  for (std::size_t i = 0; i + 1 < p; ++i) {
    if (items[i] <= 0) continue;
    s4u::Actor::create(fmt::format("worker-{}", i), host[i], [&, i] {
      s4u::Mailbox::by_name(fmt::format("share-{}", i))->get<char>();
      r.shares[i].comm_end = s4u::Engine::get_clock();
      s4u::this_actor::execute(work(i));
      r.shares[i].finish = s4u::Engine::get_clock();
    });
  }
  const auto start = std::chrono::steady_clock::now();
  detail::run_engine(engine, "scatter replay");
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& s : r.shares) r.makespan = std::max(r.makespan, s.finish);
  return r;
}
}  // namespace

ScatterReplay replay_scatter(const scatter::Problem& problem, const std::vector<Count>& items) {
  const std::string xml = scatter_platform_xml(problem);
  auto engine = detail::make_engine(kExactNetwork);
  detail::load_platform_text(*engine, xml);
  std::vector<s4u::Host*> host;
  for (std::size_t i = 0; i < problem.size(); ++i) host.push_back(s4u::Host::by_name(fmt::format("p{}", i)));
  return run_replay(*engine, problem, items, host, [&](std::size_t i) {
    return problem.comm[i].per_item() > 0 ? static_cast<double>(items[i]) : 0.0;
  });
}

XmlScatter replay_scatter_xml(const std::string& path, const std::string& root, double flops_per_item,
                              double bytes_per_item, const scatter::Request& request) {
  if (!(flops_per_item > 0) || !(bytes_per_item >= 0))
    throw Error(fmt::format("simulate scatter: --flops-per-item {} and --bytes-per-item {}; expected > 0 and >= 0",
                            flops_per_item, bytes_per_item));
  if (request.items <= 0) throw Error("simulate scatter: a SimGrid XML platform needs --items N");
  // SimGrid never completes an activity of inf flops or bytes (it reports a deadlock).
  const double n = static_cast<double>(request.items);
  if (!std::isfinite(n * flops_per_item) || !std::isfinite(n * bytes_per_item))
    throw Error(fmt::format("simulate scatter: {} items of {} flops and {} bytes; expected finite totals (fewer items, "
                            "or smaller --flops-per-item and --bytes-per-item)",
                            request.items, flops_per_item, bytes_per_item));
  auto engine = detail::make_engine(kExactNetwork);
  const std::vector<s4u::Host*> hosts = detail::load_platform(*engine, path, 0);
  Platform platform;
  platform.name = path;
  platform.items = request.items;
  const s4u::Host* root_host = hosts.front();
  if (!root.empty()) {
    root_host = s4u::Host::by_name_or_null(root);
    if (!root_host) throw Error(fmt::format("simulate scatter: --root \"{}\": no such host in {}", root, path));
  }
  for (s4u::Host* h : hosts) {
    Processor proc;
    proc.name = h->get_name();
    proc.compute = CostFunction::linear(flops_per_item / h->get_speed());
    if (h == root_host) {
      platform.root = platform.processors.size();
    } else {
      std::vector<s4u::Link*> links;
      double latency = 0;
      detail::check_route(root_host, h, path);
      root_host->route_to(h, links, &latency);
      double bandwidth = 1e300;
      for (const s4u::Link* l : links) bandwidth = std::min(bandwidth, l->get_bandwidth());
      proc.comm = CostFunction::affine(latency, links.empty() ? 0.0 : bytes_per_item / bandwidth);
    }
    platform.processors.push_back(std::move(proc));
  }
  XmlScatter out;
  scatter::Request req = request;
  req.root.clear();
  out.plan = scatter::plan_scatter(platform, req);
  std::vector<s4u::Host*> host;
  for (std::size_t idx : out.plan.problem.platform_index) host.push_back(hosts[idx]);
  const auto& items = out.plan.plan.items;
  out.replay = run_replay(*engine, out.plan.problem, items, host,
                          [&](std::size_t i) { return static_cast<double>(items[i]) * bytes_per_item; });
  return out;
}

}  // namespace hetlb::sim
