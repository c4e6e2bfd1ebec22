// The paper's platforms (Section "Platforms"), normalised as there: 1 Gflop/s hosts, 125 MB/s and
// 50 us host links, 2.25 GB/s and 500 us links between sites.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/sim/platform.hpp"

namespace hetlb::sim {

namespace {
constexpr const char* kHeader =
    "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n";

std::string cluster_tag(const std::string& id, const std::string& prefix, int hosts, const std::string& extra) {
  return fmt::format(
      "  <cluster id=\"{}\" prefix=\"{}\" radical=\"0-{}\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\""
      " sharing_policy=\"SPLITDUPLEX\"{}/>\n",
      id, prefix, hosts - 1, extra);
}
}  // namespace

std::string cluster_platform_xml(int hosts) {
  if (hosts < 1) throw Error(fmt::format("cluster platform: {} hosts; expected at least 1", hosts));
  return kHeader + cluster_tag("cluster", "node-", hosts, "") + "</platform>\n";
}

int default_grid_sites(int hosts) { return std::clamp(hosts, 1, 4); }

std::string grid_platform_xml(int hosts, int sites) {
  if (sites < 1 || hosts < sites)
    throw Error(fmt::format("grid platform: {} hosts on {} sites; expected at least one host per site", hosts, sites));
  std::string xml = kHeader;
  xml += "<zone id=\"grid\" routing=\"Full\">\n";
  for (int s = 0; s < sites; ++s) {
    const int size = hosts / sites + (s < hosts % sites ? 1 : 0);
    xml += cluster_tag(fmt::format("site-{}", s), fmt::format("site-{}-node-", s), size,
                       fmt::format(" router_id=\"site-{}-router\"", s));
  }
  for (int s = 0; s < sites; ++s)
    xml += fmt::format("  <link id=\"site-{}-uplink\" bandwidth=\"2.25GBps\" latency=\"500us\"/>\n", s);
  for (int a = 0; a < sites; ++a)
    for (int b = a + 1; b < sites; ++b)
      xml += fmt::format(
          "  <zoneRoute src=\"site-{0}\" dst=\"site-{1}\" gw_src=\"site-{0}-router\" gw_dst=\"site-{1}-router\">"
          "<link_ctn id=\"site-{0}-uplink\"/><link_ctn id=\"site-{1}-uplink\"/></zoneRoute>\n",
          a, b);
  xml += "</zone>\n</platform>\n";
  return xml;
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])), db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;
}

std::vector<int> map_nodes_to_hosts(int nodes, int hosts) {
  if (hosts < 1) throw Error("platform: no hosts; expected at least one host");
  std::vector<int> map(nodes);
  for (int i = 0; i < nodes; ++i) map[i] = i % hosts;
  return map;
}

}  // namespace hetlb::sim
