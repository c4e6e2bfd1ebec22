// The paper's platforms (Section "Platforms"), normalised as there: 1 Gflop/s hosts, 125 MB/s and
// 50 us host links (the Grid'5000 subset, with its 2.25 GB/s, 500 us links between sites, and its
// real variant are in grid5000_platform.cpp); and the one-node-per-host mapping.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/sim/grid5000.hpp"
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

std::string cluster_platform_xml(const std::vector<double>& speeds) {
  if (speeds.empty()) throw Error("cluster platform: 0 hosts; expected at least 1");
  std::string xml = std::string(kHeader) + "<zone id=\"cluster\" routing=\"Cluster\">\n";
  for (std::size_t i = 0; i < speeds.size(); ++i)
    xml += fmt::format(
        "  <host id=\"node-{0}\" speed=\"{1}f\"/>\n"
        "  <link id=\"cluster_link_{0}\" bandwidth=\"125MBps\" latency=\"50us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
        "  <host_link id=\"node-{0}\" up=\"cluster_link_{0}_UP\" down=\"cluster_link_{0}_DOWN\"/>\n",
        i, speeds[i]);
  return xml + "</zone>\n</platform>\n";
}

bool is_study_platform(const std::string& name) { return name == "cluster" || name == "grid" || name == "grid-real"; }

std::string study_platform_xml(const std::string& name, int hosts) {
  if (name == "grid") return grid5000::platform_xml(hosts);
  if (name == "grid-real") return grid5000::platform_xml(hosts, grid5000::Variant::real);
  if (name == "cluster") return cluster_platform_xml(hosts);
  throw Error(fmt::format("platform \"{}\": unknown; expected cluster, grid or grid-real", name));
}

std::vector<std::string> study_host_names(const std::string& name, int hosts) {
  if (name == "grid" || name == "grid-real") return grid5000::host_names(hosts);
  study_platform_xml(name, hosts);  // refuses unknown names and bad counts
  std::vector<std::string> names;
  for (int i = 0; i < hosts; ++i) names.push_back(fmt::format("node-{}", i));
  return names;
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
  if (hosts < nodes)
    throw Error(fmt::format("platform: {} hosts for {} nodes; expected at least one host per node", hosts, nodes));
  std::vector<int> map(nodes);
  for (int i = 0; i < nodes; ++i) map[i] = i;
  return map;
}

}  // namespace hetlb::sim
