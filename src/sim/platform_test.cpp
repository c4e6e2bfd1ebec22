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

TEST(Platform, StudyPlatformsByName) {
  EXPECT_TRUE(is_study_platform("cluster"));
  EXPECT_TRUE(is_study_platform("grid"));
  EXPECT_FALSE(is_study_platform("g5k.xml"));
  EXPECT_EQ(study_host_names("cluster", 3), (std::vector<std::string>{"node-0", "node-1", "node-2"}));
  EXPECT_EQ(study_host_names("grid", 2), (std::vector<std::string>{"nancy-graphene-1", "orsay-gdx-1"}));
  EXPECT_EQ(count(study_platform_xml("grid", 16), "<cluster "), 13u);  // docs/simulation.md's table
  EXPECT_THROW(study_platform_xml("mesh", 4), Error);
  EXPECT_THROW(study_host_names("cluster", 0), Error);
}

TEST(Platform, NaturalOrder) {
  std::vector<std::string> names{"node-10", "node-2", "node-1", "a-3.site", "node-02x"};
  std::sort(names.begin(), names.end(), natural_less);
  EXPECT_EQ(names, (std::vector<std::string>{"a-3.site", "node-1", "node-2", "node-02x", "node-10"}));
  EXPECT_FALSE(natural_less("x", "x"));
}

TEST(Platform, MappingIsOneNodePerHost) {
  EXPECT_EQ(map_nodes_to_hosts(3, 8), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(map_nodes_to_hosts(2, 2), (std::vector<int>{0, 1}));
  EXPECT_THROW(map_nodes_to_hosts(5, 2), Error);
  EXPECT_THROW(map_nodes_to_hosts(3, 0), Error);
}

}  // namespace
}  // namespace hetlb::sim
