// The study's generated platforms inside SimGrid, each check in a forked child (one engine per
// process): N hosts at 1 Gflop/s, 125 MB/s, 50 us links inside a cluster and a site, the 2.25 GB/s,
// 500 us backbone links of g5k.xml between sites (S4U route queries), per-site counts as documented;
// and the fact table against g5k.xml itself when that file is at hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "engine.hpp"
#include "forked_run.hpp"
#include "hetlb/sim/grid5000.hpp"
#include "hetlb/sim/platform.hpp"
#include "platform_loading.hpp"

namespace hetlb::sim {
namespace {

namespace s4u = simgrid::s4u;

// Each check runs in a child process (one engine per process); it reports "" when every check held.
std::string in_child(const std::function<std::string()>& check) { return testing::run_in_child(check); }

struct Route {
  std::vector<s4u::Link*> links;
  double latency = 0;
};

Route route(const s4u::Host* a, const s4u::Host* b) {
  Route r;
  a->route_to(b, r.links, &r.latency);
  return r;
}

std::string site_of(const std::string& host) { return host.substr(0, host.find('-')); }
std::string cluster_of(const std::string& host) { return host.substr(0, host.rfind('-')); }

// Every link of `r` is a site link (125 MB/s, 50 us) except the backbone links named in `wide`.
std::string check_route(const std::string& what, const Route& r, std::size_t site_links,
                        const std::set<std::string>& wide) {
  std::string out;
  std::set<std::string> wide_seen;
  std::size_t narrow = 0;
  for (const s4u::Link* l : r.links) {
    if (wide.count(l->get_name())) {
      wide_seen.insert(l->get_name());
      if (l->get_bandwidth() != 2.25e9 || std::abs(l->get_latency() - 500e-6) > 1e-15)
        out += fmt::format("{}: {} at {} B/s, {} s\n", what, l->get_name(), l->get_bandwidth(), l->get_latency());
    } else {
      ++narrow;
      if (l->get_bandwidth() != 125e6 || std::abs(l->get_latency() - 50e-6) > 1e-15)
        out += fmt::format("{}: {} at {} B/s, {} s\n", what, l->get_name(), l->get_bandwidth(), l->get_latency());
    }
  }
  if (wide_seen != wide || narrow != site_links)
    out += fmt::format("{}: {} site links and {} backbone links; expected {} and {}\n", what, narrow, wide_seen.size(),
                       site_links, wide.size());
  const double expected = site_links * 50e-6 + wide.size() * 500e-6;
  if (std::abs(r.latency - expected) > 1e-12) out += fmt::format("{}: latency {} s, expected {}\n", what, r.latency, expected);
  return out;
}

std::string check_grid(int n) {
  auto engine = detail::make_engine();
  const std::vector<s4u::Host*> hosts = detail::load_platform(*engine, "grid", n);
  engine->seal_platform();  // routes are computed when the platform is sealed
  std::string out;
  std::vector<std::string> names;
  for (const s4u::Host* h : hosts) {
    names.push_back(h->get_name());
    if (h->get_speed() != 1e9) out += fmt::format("{} at {} flop/s\n", h->get_name(), h->get_speed());
  }
  if (names != grid5000::host_names(n)) out += "hosts differ from grid5000::host_names\n";
  // Per-site counts follow the Sainte-Lague selection.
  std::map<std::string, int> per_site;
  for (const auto& name : names) ++per_site[site_of(name)];
  const auto picked = grid5000::select_hosts(n);
  for (std::size_t s = 0; s < grid5000::sites().size(); ++s) {
    int expected = 0;
    for (int k : picked[s]) expected += k;
    const std::string site(grid5000::sites()[s].name);
    if (per_site[site] != expected) out += fmt::format("{}: {} hosts, expected {}\n", site, per_site[site], expected);
  }
  // Inside a cluster: the two private links; between clusters of a site: and the two uplinks.
  std::map<std::string, const s4u::Host*> first_of_site, first_of_cluster;
  bool intra_cluster = false, intra_site = false;
  for (const s4u::Host* h : hosts) {
    const std::string site = site_of(h->get_name()), cluster = cluster_of(h->get_name());
    if (auto c = first_of_cluster.find(cluster); c != first_of_cluster.end() && !intra_cluster) {
      out += check_route("inside " + cluster, route(c->second, h), 2, {});
      intra_cluster = true;
    }
    if (auto s = first_of_site.find(site);
        s != first_of_site.end() && cluster_of(s->second->get_name()) != cluster && !intra_site) {
      out += check_route("inside " + site, route(s->second, h), 4, {});
      intra_site = true;
    }
    first_of_site.emplace(site, h);
    first_of_cluster.emplace(cluster, h);
  }
  if (!intra_cluster || !intra_site) out += "no two hosts in one cluster, or no two clusters in one site\n";
  // Between sites: private links, uplinks, access links, and g5k's backbone path.
  for (std::size_t a = 0; a < grid5000::sites().size(); ++a)
    for (std::size_t b = 0; b < grid5000::sites().size(); ++b) {
      const auto ha = first_of_site.find(std::string(grid5000::sites()[a].name));
      const auto hb = first_of_site.find(std::string(grid5000::sites()[b].name));
      if (a == b || ha == first_of_site.end() || hb == first_of_site.end()) continue;
      std::set<std::string> wide;
      for (const auto& l : grid5000::backbone_path(a, b)) wide.insert(fmt::format("{}-{}", l.a, l.b));
      out += check_route(ha->first + " to " + hb->first, route(ha->second, hb->second), 6, wide);
    }
  if (first_of_site.size() != 9) out += fmt::format("{} sites used, expected 9\n", first_of_site.size());
  return out;
}

// The real subset: the same hosts as the normalised one, each at its cluster's speed of the table, and
// every link with g5k.xml's bandwidth and latency for its kind (grid5000.hpp).
std::string check_grid_real(int n) {
  auto engine = detail::make_engine();
  const std::vector<s4u::Host*> hosts = detail::load_platform(*engine, "grid-real", n);
  std::string out;
  std::vector<std::string> names;
  const std::vector<double> speeds = grid5000::host_speeds(n);
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    names.push_back(hosts[i]->get_name());
    if (hosts[i]->get_speed() != speeds[i])
      out += fmt::format("{} at {} flop/s, expected {}\n", hosts[i]->get_name(), hosts[i]->get_speed(), speeds[i]);
  }
  if (names != grid5000::host_names(n)) out += "hosts differ from grid5000::host_names\n";
  using namespace grid5000;
  for (const s4u::Link* l : engine->get_all_links()) {
    const std::string name = l->get_name();
    double bw = kHostLinkBandwidth, lat = kHostLinkLatency;
    if (name == "__loopback__") continue;  // SimGrid's own
    if (name.ends_with("-uplink")) {
      bw = kUplinkBandwidth, lat = kUplinkLatency;
    } else if (name.ends_with("-access")) {
      bw = kGatewayBandwidth, lat = kGatewayLatency;
    } else if (name.ends_with("_backbone")) {
      bw = kClusterBackboneBandwidth, lat = kClusterBackboneLatency;
    } else if (std::any_of(backbone().begin(), backbone().end(),
                           [&](const BackboneLink& b) { return fmt::format("{}-{}", b.a, b.b) == name; })) {
      bw = kBackboneBandwidth, lat = kBackboneLatency;
    }
    if (l->get_bandwidth() != bw || std::abs(l->get_latency() - lat) > 1e-15)
      out += fmt::format("{} at {} B/s, {} s; expected {} B/s, {} s\n", name, l->get_bandwidth(), l->get_latency(), bw,
                         lat);
  }
  // The slowest and the fastest cluster of g5k.xml are in the subset from 64 hosts on.
  if (n >= 64 && (*std::min_element(speeds.begin(), speeds.end()) > 4.72e9 ||
                  *std::max_element(speeds.begin(), speeds.end()) != 30.13e9))
    out += "the subset lacks g5k.xml's slowest or fastest cluster\n";
  return out;
}

class GridPlatform : public ::testing::TestWithParam<int> {};

TEST_P(GridPlatform, RealVariantHasEachClustersSpeedAndG5ksLinks) {
  const int n = GetParam();
  EXPECT_EQ(in_child([n] { return check_grid_real(n); }), "");
}

TEST_P(GridPlatform, LoadsWithTheStudysHostsAndLinks) {
  const int n = GetParam();
  EXPECT_EQ(in_child([n] { return check_grid(n); }), "");
}

INSTANTIATE_TEST_SUITE_P(StudySizes, GridPlatform, ::testing::Values(16, 64, 256, 1024));

TEST(ClusterPlatform, LoadsWithTheStudysHostsAndLinks) {
  EXPECT_EQ(in_child([] {
              auto engine = detail::make_engine();
              const auto hosts = detail::load_platform(*engine, "cluster", 1024);
              engine->seal_platform();
              std::string out;
              if (hosts.size() != 1024) out += fmt::format("{} hosts\n", hosts.size());
              for (const s4u::Host* h : hosts)
                if (h->get_speed() != 1e9) out += h->get_name() + " not at 1 Gflop/s\n";
              return out + check_route("cluster", route(hosts[0], hosts[1023]), 2, {});
            }),
            "");
}

TEST(PlatformLoading, RefusesFewerHostsThanNodes) {
  const std::string xml = std::string(HETLB_BINARY_DIR) + "/two_hosts.xml";
  std::ofstream(xml) << cluster_platform_xml(2);
  const std::string got = in_child([&] {
    auto engine = detail::make_engine();
    detail::load_platform(*engine, xml, 3);
    return std::string("accepted");
  });
  EXPECT_EQ(got, fmt::format("error platform \"{}\": 2 hosts for 3 nodes; expected at least one host per node", xml));
}

// g5k.xml: hosts "graphene-12.nancy.grid5000.fr", backbone links "Paris_Nancy".
TEST(Grid5000, FactTableAgreesWithG5kXml) {
  const std::string g5k = std::string(HETLB_SOURCE_DIR) + "/../shared/platforms/g5k.xml";
  if (!std::ifstream(g5k)) GTEST_SKIP() << g5k << " absent (the table is checked against it when present)";
  EXPECT_EQ(in_child([&] {
              auto engine = detail::make_engine();
              const auto hosts = detail::load_platform(*engine, g5k, 0);
              engine->seal_platform();
              std::string out;
              std::map<std::string, std::map<std::string, int>> counts;
              std::map<std::string, const s4u::Host*> first_of_site;
              const auto lower = [](std::string s) {
                for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                return s;
              };
              std::set<std::string> routers;
              for (std::string_view r : grid5000::routers()) routers.emplace(r);
              std::map<std::string, std::map<std::string, double>> speeds;
              for (const s4u::Host* h : hosts) {
                const std::string name = h->get_name();
                const std::string site = name.substr(name.find('.') + 1, name.find(".grid5000") - name.find('.') - 1);
                const std::string cluster = name.substr(0, name.rfind('-', name.find('.')));
                ++counts[site][cluster];
                if (speeds[site].count(cluster) && speeds[site][cluster] != h->get_speed())
                  out += cluster + ": hosts of several speeds\n";
                speeds[site][cluster] = h->get_speed();
                first_of_site.emplace(site, h);
              }
              std::map<std::string, std::map<std::string, int>> table;
              std::map<std::string, std::map<std::string, double>> table_speeds;
              for (const auto& s : grid5000::sites())
                for (const auto& c : s.clusters) {
                  table[std::string(s.name)][std::string(c.name)] = c.hosts;
                  table_speeds[std::string(s.name)][std::string(c.name)] = c.speed;
                }
              if (counts != table) out += "sites, clusters or host counts differ\n";
              if (speeds != table_speeds) out += "cluster speeds differ\n";
              // Links by their g5k.xml names: link_gw_SITE, link_CLUSTER, Router_Router, switch-*
              // (split clusters, not kept), the clusters' backbones and the hosts' private links.
              using namespace grid5000;
              for (const s4u::Link* l : engine->get_all_links()) {
                const std::string name = l->get_name();
                double bw = kHostLinkBandwidth, lat = kHostLinkLatency;
                if (name.starts_with("switch-") || name == "__loopback__") continue;
                if (name.starts_with("link_gw_"))
                  bw = kGatewayBandwidth, lat = kGatewayLatency;
                else if (name.starts_with("link_"))
                  bw = kUplinkBandwidth, lat = kUplinkLatency;
                else if (name.ends_with("_backbone"))
                  bw = kClusterBackboneBandwidth, lat = kClusterBackboneLatency;
                else if (name.find('_') != std::string::npos && routers.count(lower(name.substr(0, name.find('_')))))
                  bw = kBackboneBandwidth, lat = kBackboneLatency;
                if (l->get_bandwidth() != bw || std::abs(l->get_latency() - lat) > 1e-15)
                  out += fmt::format("{} at {} B/s, {} s; expected {} B/s, {} s\n", name, l->get_bandwidth(),
                                     l->get_latency(), bw, lat);
              }
              const auto backbone_links = [&](const Route& r) {  // as {"lille-paris", ...} in table order
                std::set<std::string> got;
                for (const s4u::Link* l : r.links) {
                  const std::string name = lower(l->get_name());
                  const auto cut = name.find('_');
                  if (cut == std::string::npos || !routers.count(name.substr(0, cut)) ||
                      !routers.count(name.substr(cut + 1)))
                    continue;
                  std::string known = "not in the table: " + name;
                  for (const auto& b : grid5000::backbone())
                    if ((b.a == name.substr(0, cut) && b.b == name.substr(cut + 1)) ||
                        (b.b == name.substr(0, cut) && b.a == name.substr(cut + 1)))
                      known = fmt::format("{}-{}", b.a, b.b);
                  got.insert(known);
                }
                return got;
              };
              for (std::size_t a = 0; a < grid5000::sites().size(); ++a)
                for (std::size_t b = 0; b < grid5000::sites().size(); ++b) {
                  const std::string sa(grid5000::sites()[a].name), sb(grid5000::sites()[b].name);
                  if (!first_of_site.count(sa) || !first_of_site.count(sb)) continue;
                  std::set<std::string> expected;
                  for (const auto& l : grid5000::backbone_path(a, b)) expected.insert(fmt::format("{}-{}", l.a, l.b));
                  if (backbone_links(route(first_of_site[sa], first_of_site[sb])) != expected)
                    out += fmt::format("{} to {}: backbone path differs\n", sa, sb);
                }
              return out;
            }),
            "");
}

}  // namespace
}  // namespace hetlb::sim
