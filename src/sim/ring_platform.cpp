// A processor ring as a SimGrid platform.
#include "ring_platform.hpp"

#include <fmt/format.h>

namespace hetlb::sim::detail {

const std::vector<std::string>& exact_ring_network() {
  static const std::vector<std::string> settings{
      "--cfg=network/model:CM02",        "--cfg=network/crosstraffic:0",      "--cfg=network/TCP-gamma:1e30",
      "--cfg=network/latency-factor:1", "--cfg=network/bandwidth-factor:1", "--cfg=network/weight-S:0"};
  return settings;
}

std::string ring_platform_xml(const ring::Ring& r, const std::vector<double>& speeds) {
  const std::size_t n = r.size();
  std::string xml =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n<zone id=\"ring\" routing=\"Full\">\n";
  for (std::size_t i = 0; i < n; ++i)
    xml += fmt::format("  <host id=\"p{}\" speed=\"{:.17g}f\"/>\n", i, speeds.empty() ? 1.0 : speeds[i]);
  for (std::size_t i = 0; i < n; ++i) {
    xml += fmt::format("  <link id=\"s{}\" bandwidth=\"{:.17g}Bps\" latency=\"0s\"/>\n", i, 1.0 / r.succ_cost[i]);
    if (r.bidirectional())
      xml += fmt::format("  <link id=\"r{}\" bandwidth=\"{:.17g}Bps\" latency=\"0s\"/>\n", i, 1.0 / r.pred_cost[i]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    xml += fmt::format("  <route src=\"p{}\" dst=\"p{}\" symmetrical=\"NO\"><link_ctn id=\"s{}\"/></route>\n", i,
                       r.succ(i), i);
    if (r.bidirectional())
      xml += fmt::format("  <route src=\"p{}\" dst=\"p{}\" symmetrical=\"NO\"><link_ctn id=\"r{}\"/></route>\n", i,
                         r.pred(i), i);
  }
  return xml + "</zone>\n</platform>\n";
}

}  // namespace hetlb::sim::detail
