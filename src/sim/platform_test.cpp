// Platform generators and the node-to-host mapping (no SimGrid engine needed).
#include <gtest/gtest.h>

#include <algorithm>

#include "hetlb/error.hpp"
#include "hetlb/sim/platform.hpp"

namespace hetlb::sim {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(Platform, ClusterHasThePapersCharacteristics) {
  const std::string xml = cluster_platform_xml(16);
  EXPECT_NE(xml.find("radical=\"0-15\""), std::string::npos);
  EXPECT_NE(xml.find("speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\""), std::string::npos);
  EXPECT_THROW(cluster_platform_xml(0), Error);
}

TEST(Platform, GridSplitsHostsOverSitesJoinedByFastLinks) {
  const std::string xml = grid_platform_xml(10, 4);
  EXPECT_EQ(count(xml, "<cluster "), 4u);
  EXPECT_NE(xml.find("prefix=\"site-0-node-\" radical=\"0-2\""), std::string::npos);  // 3,3,2,2
  EXPECT_NE(xml.find("prefix=\"site-3-node-\" radical=\"0-1\""), std::string::npos);
  EXPECT_EQ(count(xml, "bandwidth=\"2.25GBps\" latency=\"500us\""), 4u);
  EXPECT_EQ(count(xml, "<zoneRoute "), 6u);
  EXPECT_EQ(default_grid_sites(2), 2);
  EXPECT_EQ(default_grid_sites(1024), 4);
  EXPECT_THROW(grid_platform_xml(2, 3), Error);
}

TEST(Platform, NaturalOrder) {
  std::vector<std::string> names{"node-10", "node-2", "node-1", "a-3.site", "node-02x"};
  std::sort(names.begin(), names.end(), natural_less);
  EXPECT_EQ(names, (std::vector<std::string>{"a-3.site", "node-1", "node-2", "node-02x", "node-10"}));
  EXPECT_FALSE(natural_less("x", "x"));
}

TEST(Platform, MappingIsRoundRobin) {
  EXPECT_EQ(map_nodes_to_hosts(5, 2), (std::vector<int>{0, 1, 0, 1, 0}));
  EXPECT_EQ(map_nodes_to_hosts(3, 8), (std::vector<int>{0, 1, 2}));
  EXPECT_THROW(map_nodes_to_hosts(3, 0), Error);
}

}  // namespace
}  // namespace hetlb::sim
