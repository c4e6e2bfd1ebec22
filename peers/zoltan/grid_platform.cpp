// hetlb-peers-grid-platform: the diffusion study's Grid'5000 subset (hetlb::sim, `hetlb
// simgrid-platform --study grid`) as a scatter platform for the comparison with Zoltan under SMPI.
// Writes the SimGrid XML and host file (rank k on host k, rank 0 the root) and the hetlb platform JSON
// whose costs are the simulated ones: the link of processor k is its route from the root, its latency
// the route's and its per-item cost `bytes / the route's narrowest bandwidth` (SimGrid's own route,
// read with s4u); its computing cost `flops x slowdown / host speed`, with slowdowns drawn from the seed
// in 1..6 (the root's 1) that the seismic program emulates (--emulate: slowdown x flops per ray).
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "hetlb/build_info.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/sim/platform.hpp"

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-peers-grid-platform")) return 0;  // before MPI or any parsing
  int nodes = 64;
  double flops = 1e5, bytes = 32;
  unsigned seed = 33;
  long long items = 128000;
  std::string json, xml, hostfile;
  CLI::App app{"The study's Grid'5000 subset as a scatter platform (JSON) with its SimGrid XML"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.add_option("--nodes", nodes, "hosts (ranks)")->check(CLI::Range(2, 1528));
  app.add_option("--flops-per-ray", flops, "work of one ray at slowdown 1, flops")->check(CLI::PositiveNumber);
  app.add_option("--bytes-per-ray", bytes, "size of one ray, bytes")->check(CLI::PositiveNumber);
  app.add_option("--items", items, "the platform's default items")->check(CLI::Range(1LL, 100'000'000LL));
  app.add_option("--seed", seed, "seed of the slowdowns");
  app.add_option("--json", json, "hetlb platform JSON to write")->required();
  app.add_option("--xml", xml, "SimGrid XML to write")->required();
  app.add_option("--hostfile", hostfile, "host file to write (host k = rank k)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::fprintf(stderr, "hetlb-peers-grid-platform: %s\n", e.what());
    return 2;
  }
  try {
    const std::vector<std::string> names = hetlb::sim::study_host_names("grid", nodes);
    {
      std::ofstream x(xml), h(hostfile);
      x << hetlb::sim::study_platform_xml("grid", nodes);
      for (const std::string& n : names) h << n << "\n";
      if (!x || !h) throw std::runtime_error(xml + " or " + hostfile + ": cannot be written");
    }
    int engine_argc = 1;
    char name[] = "hetlb-peers-grid-platform";
    char* engine_argv[] = {name, nullptr};
    simgrid::s4u::Engine engine(&engine_argc, engine_argv);
    engine.load_platform(xml);
    engine.seal_platform();
    std::mt19937 g(seed);
    hetlb::Platform platform;
    platform.name = "study-grid-" + std::to_string(nodes);
    platform.items = items;
    platform.root = 0;
    const simgrid::s4u::Host* root = engine.host_by_name(names[0]);
    for (std::size_t k = 0; k < names.size(); ++k) {
      const simgrid::s4u::Host* host = engine.host_by_name(names[k]);
      const int slowdown = k == 0 ? 1 : 1 + static_cast<int>(g() % 6);
      hetlb::Processor p;
      p.name = names[k];
      p.compute = hetlb::CostFunction::linear(flops * slowdown / host->get_speed());
      if (k > 0) {
        std::vector<simgrid::s4u::Link*> links;
        double latency = 0;
        root->route_to(host, links, &latency);
        double bandwidth = 0;
        for (const simgrid::s4u::Link* l : links)
          if (bandwidth == 0 || l->get_bandwidth() < bandwidth) bandwidth = l->get_bandwidth();
        p.comm = hetlb::CostFunction::affine(latency, bytes / bandwidth);
      }
      platform.processors.push_back(p);
    }
    std::ofstream out(json);
    out << hetlb::io::platform_to_json(platform) << "\n";
    if (!out) throw std::runtime_error(json + ": cannot be written");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetlb-peers-grid-platform: %s\n", e.what());
    return 1;
  }
  return 0;
}
