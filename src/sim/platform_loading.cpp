// Loads the platform into the SimGrid engine: generated XML for "cluster", "grid" and "grid-real", any file
// otherwise; returns the hosts in natural order of their names, refusing fewer hosts than nodes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include <fmt/format.h>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/sim/grid5000.hpp"
#include "hetlb/sim/platform.hpp"
#include "platform_loading.hpp"

namespace hetlb::sim::detail {

namespace {
void load_file(const simgrid::s4u::Engine& engine, const std::string& path) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(fmt::format("platform \"{}\": {}; expected cluster, grid, grid-real or a SimGrid XML file", path, why));
  try {
    engine.load_platform(path);
  } catch (const std::exception& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw Error(fmt::format("platform \"{}\": {}; expected a valid SimGrid XML platform", path, what));
  }
}

void load_text(const simgrid::s4u::Engine& engine, const std::string& xml) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/hetlb-platform-XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) throw Error(fmt::format("platform: cannot create a temporary file in {}", path));
  const bool ok = write(fd, xml.data(), xml.size()) == static_cast<ssize_t>(xml.size());
  close(fd);
  try {
    if (!ok) throw Error(fmt::format("platform: cannot write the temporary file {}", path));
    load_file(engine, path);
  } catch (...) {
    std::remove(path.c_str());
    throw;
  }
  std::remove(path.c_str());
}

// SimGrid aborts ("The Impossible Did Happen") when an activity runs on a host of speed 0 or crosses a
// link of bandwidth 0: refused when the platform is loaded, naming the resource.
void check_resources(const simgrid::s4u::Engine& engine, const std::string& spec) {
  for (const simgrid::s4u::Host* h : engine.get_all_hosts())
    if (!(h->get_speed() > 0) || !std::isfinite(h->get_speed()))
      throw Error(fmt::format("platform \"{}\": host \"{}\" computes at {} flop/s; expected a positive speed", spec,
                              h->get_name(), h->get_speed()));
  for (const simgrid::s4u::Link* l : engine.get_all_links())
    if (!(l->get_bandwidth() > 0) || !std::isfinite(l->get_bandwidth()) || !(l->get_latency() >= 0))
      throw Error(fmt::format("platform \"{}\": link \"{}\" has bandwidth {} B/s and latency {} s; expected a "
                              "positive bandwidth and a non-negative latency",
                              spec, l->get_name(), l->get_bandwidth(), l->get_latency()));
}
}  // namespace

void load_platform_text(const simgrid::s4u::Engine& engine, const std::string& xml) { load_text(engine, xml); }

void check_route(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to, const std::string& spec) {
  if (from == to) return;
  std::vector<simgrid::s4u::Link*> links;
  double latency = 0;
  from->route_to(to, links, &latency);
  if (links.empty() && !(latency > 0))  // SimGrid's own test before it aborts
    throw Error(fmt::format("platform \"{}\": no route from host \"{}\" to host \"{}\"; expected a route between "
                            "every two hosts that communicate",
                            spec, from->get_name(), to->get_name()));
}

std::vector<simgrid::s4u::Host*> load_platform(const simgrid::s4u::Engine& engine, const std::string& spec,
                                               int nodes, const std::vector<double>& cluster_speeds) {
  if ((spec == "grid" || spec == "grid-real") && nodes > grid5000::total_hosts())  // as for a file too small
    throw Error(fmt::format("platform \"{}\": {} hosts for {} nodes; expected at least one host per node", spec,
                            grid5000::total_hosts(), nodes));
  if (!cluster_speeds.empty())  // host speeds are fixed once loaded: they are in the generated XML
    load_text(engine, cluster_platform_xml(cluster_speeds));
  else if (is_study_platform(spec))
    load_text(engine, study_platform_xml(spec, nodes));
  else
    load_file(engine, spec);
  // Routes are final once the platform is sealed (Floyd and Dijkstra zones compute them then): before,
  // route_to may miss routes that exist.
  engine.seal_platform();
  std::vector<simgrid::s4u::Host*> hosts = engine.get_all_hosts();
  if (hosts.empty()) throw Error(fmt::format("platform \"{}\": no hosts; expected at least one host", spec));
  check_resources(engine, spec);
  if (hosts.size() < static_cast<std::size_t>(nodes))
    throw Error(fmt::format("platform \"{}\": {} hosts for {} nodes; expected at least one host per node", spec,
                            hosts.size(), nodes));
  std::sort(hosts.begin(), hosts.end(),
            [](const auto* a, const auto* b) { return natural_less(a->get_name(), b->get_name()); });
  return hosts;
}

}  // namespace hetlb::sim::detail
