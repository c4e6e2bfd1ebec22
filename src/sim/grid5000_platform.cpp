// The study's Grid'5000 subset at any size (Couturier & Giersch, Section "Platforms"): which hosts
// are picked, and the SimGrid platform joining them through g5k.xml's backbone: normalised as in the
// study, or with each cluster's real speed and g5k.xml's real links.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/sim/grid5000.hpp"

namespace hetlb::sim::grid5000 {

namespace {
// Sainte-Lague divisor method, one seat at a time: the next seat goes to the highest
// size / (2 seats + 1) among entries not yet full; ties to the earlier entry.
std::vector<int> apportion(const std::vector<int>& sizes, int seats) {
  std::vector<int> taken(sizes.size(), 0);
  for (int s = 0; s < seats; ++s) {
    std::size_t best = sizes.size();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      if (taken[i] >= sizes[i]) continue;
      if (best == sizes.size() ||
          static_cast<long>(sizes[i]) * (2 * taken[best] + 1) > static_cast<long>(sizes[best]) * (2 * taken[i] + 1))
        best = i;
    }
    ++taken[best];  // seats <= sum of sizes, checked by the caller
  }
  return taken;
}

constexpr const char* kIntra = "bandwidth=\"125MBps\" latency=\"50us\"";
constexpr const char* kWide = "bandwidth=\"2.25GBps\" latency=\"500us\"";

std::string link_attributes(double bandwidth, double latency) {
  return fmt::format("bandwidth=\"{}Bps\" latency=\"{}s\"", bandwidth, latency);
}

// The links of each kind in one variant.
struct Links {
  std::string uplink, access, backbone;
};

Links links_of(Variant v) {
  if (v == Variant::normalised) return {kIntra, kIntra, kWide};
  return {link_attributes(kUplinkBandwidth, kUplinkLatency), link_attributes(kGatewayBandwidth, kGatewayLatency),
          link_attributes(kBackboneBandwidth, kBackboneLatency)};
}

std::string cluster_tag(const std::string& id, const Cluster& cluster, int picked, Variant v) {
  if (v == Variant::normalised)
    return fmt::format(
        "    <cluster id=\"{0}\" prefix=\"{0}-\" radical=\"1-{1}\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\""
        " sharing_policy=\"SPLITDUPLEX\" router_id=\"{0}-router\"/>\n",
        id, picked);
  return fmt::format(
      "    <cluster id=\"{0}\" prefix=\"{0}-\" radical=\"1-{1}\" suffix=\"\" speed=\"{2}f\" bw=\"{3}Bps\" lat=\"{4}s\""
      " bb_bw=\"{5}Bps\" bb_lat=\"{6}s\" sharing_policy=\"SPLITDUPLEX\" router_id=\"{0}-router\"/>\n",
      id, picked, cluster.speed, kHostLinkBandwidth, kHostLinkLatency, kClusterBackboneBandwidth,
      kClusterBackboneLatency);
}

std::string link_id(const BackboneLink& l) { return fmt::format("{}-{}", l.a, l.b); }

// One site: its picked clusters, each behind an uplink to the others and to the site's gateway.
std::string site_zone(const Site& site, const std::vector<int>& picked, Variant v) {
  std::string xml = fmt::format("  <zone id=\"{}-site\" routing=\"Full\">\n", site.name);
  std::vector<std::string> ids;
  for (std::size_t c = 0; c < site.clusters.size(); ++c) {
    if (picked[c] == 0) continue;
    const std::string id = fmt::format("{}-{}", site.name, site.clusters[c].name);
    xml += cluster_tag(id, site.clusters[c], picked[c], v);
    ids.push_back(id);
  }
  xml += fmt::format("    <zone id=\"{0}-gateway-zone\" routing=\"Full\"><router id=\"{0}-gateway\"/></zone>\n", site.name);
  for (const std::string& id : ids) xml += fmt::format("    <link id=\"{}-uplink\" {}/>\n", id, links_of(v).uplink);
  for (std::size_t a = 0; a < ids.size(); ++a) {
    for (std::size_t b = a + 1; b < ids.size(); ++b)
      xml += fmt::format(
          "    <zoneRoute src=\"{0}\" dst=\"{1}\" gw_src=\"{0}-router\" gw_dst=\"{1}-router\">"
          "<link_ctn id=\"{0}-uplink\"/><link_ctn id=\"{1}-uplink\"/></zoneRoute>\n",
          ids[a], ids[b]);
    xml += fmt::format(
        "    <zoneRoute src=\"{0}\" dst=\"{1}-gateway-zone\" gw_src=\"{0}-router\" gw_dst=\"{1}-gateway\">"
        "<link_ctn id=\"{0}-uplink\"/></zoneRoute>\n",
        ids[a], site.name);
  }
  return xml + "  </zone>\n";
}
}  // namespace

std::vector<BackboneLink> backbone_path(std::size_t a, std::size_t b) {
  const std::string_view from = sites()[a].router, to = sites()[b].router;
  std::map<std::string_view, const BackboneLink*> reached_by{{from, nullptr}};
  std::vector<std::string_view> frontier{from};
  while (!frontier.empty() && !reached_by.count(to)) {  // breadth-first over the backbone tree
    std::vector<std::string_view> next;
    for (std::string_view r : frontier)
      for (const BackboneLink& l : backbone()) {
        const std::string_view other = l.a == r ? l.b : l.b == r ? l.a : std::string_view{};
        if (!other.empty() && reached_by.emplace(other, &l).second) next.push_back(other);
      }
    frontier = std::move(next);
  }
  std::vector<BackboneLink> path;
  for (std::string_view r = to; reached_by.at(r) != nullptr;) {
    const BackboneLink& l = *reached_by.at(r);
    path.push_back(l);
    r = l.a == r ? l.b : l.a;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<std::vector<int>> select_hosts(int hosts) {
  if (hosts < 1 || hosts > total_hosts())
    throw Error(fmt::format("grid platform: {} hosts; expected 1 to {} (the Grid'5000 subset's hosts)", hosts,
                            total_hosts()));
  std::vector<int> site_sizes;
  for (const Site& s : sites()) site_sizes.push_back(s.hosts());
  const std::vector<int> per_site = apportion(site_sizes, hosts);
  std::vector<std::vector<int>> picked;
  for (std::size_t s = 0; s < sites().size(); ++s) {
    std::vector<int> cluster_sizes;
    for (const Cluster& c : sites()[s].clusters) cluster_sizes.push_back(c.hosts);
    picked.push_back(apportion(cluster_sizes, per_site[s]));
  }
  return picked;
}

std::vector<std::string> host_names(int hosts) {
  const auto picked = select_hosts(hosts);
  std::vector<std::string> names;
  for (std::size_t s = 0; s < sites().size(); ++s)
    for (std::size_t c = 0; c < sites()[s].clusters.size(); ++c)
      for (int i = 1; i <= picked[s][c]; ++i)
        names.push_back(fmt::format("{}-{}-{}", sites()[s].name, sites()[s].clusters[c].name, i));
  return names;
}

std::vector<double> host_speeds(int hosts) {
  const auto picked = select_hosts(hosts);
  std::vector<double> speeds;
  for (std::size_t s = 0; s < sites().size(); ++s)
    for (std::size_t c = 0; c < sites()[s].clusters.size(); ++c)
      speeds.insert(speeds.end(), static_cast<std::size_t>(picked[s][c]), sites()[s].clusters[c].speed);
  return speeds;
}

std::string platform_xml(int hosts, Variant variant) {
  const auto picked = select_hosts(hosts);
  const Links links = links_of(variant);
  std::string xml =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n";
  xml += variant == Variant::normalised
             ? fmt::format("<!-- Grid'5000 subset of {} hosts (hetlb, normalised as in the study) -->\n", hosts)
             : fmt::format("<!-- Grid'5000 subset of {} hosts (hetlb, real speeds and links of g5k.xml) -->\n", hosts);
  xml += "<zone id=\"grid5000\" routing=\"Floyd\">\n  <zone id=\"backbone\" routing=\"Floyd\">\n";
  for (std::string_view r : routers()) xml += fmt::format("    <router id=\"{}\"/>\n", r);
  for (const BackboneLink& l : backbone()) xml += fmt::format("    <link id=\"{}\" {}/>\n", link_id(l), links.backbone);
  for (const BackboneLink& l : backbone())
    xml += fmt::format("    <route src=\"{}\" dst=\"{}\"><link_ctn id=\"{}\"/></route>\n", l.a, l.b, link_id(l));
  xml += "  </zone>\n";
  std::vector<std::size_t> used;
  for (std::size_t s = 0; s < sites().size(); ++s) {
    if (std::all_of(picked[s].begin(), picked[s].end(), [](int k) { return k == 0; })) continue;
    used.push_back(s);
    xml += site_zone(sites()[s], picked[s], variant);
  }
  for (std::size_t s : used) xml += fmt::format("  <link id=\"{}-access\" {}/>\n", sites()[s].name, links.access);
  for (std::size_t s : used)
    xml += fmt::format(
        "  <zoneRoute src=\"{0}-site\" dst=\"backbone\" gw_src=\"{0}-gateway\" gw_dst=\"{1}\">"
        "<link_ctn id=\"{0}-access\"/></zoneRoute>\n",
        sites()[s].name, sites()[s].router);
  return xml + "</zone>\n</platform>\n";
}

}  // namespace hetlb::sim::grid5000
