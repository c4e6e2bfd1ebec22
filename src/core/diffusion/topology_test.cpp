// Topologies: shapes of the generators and refusals of bad edge-list files.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"

namespace hetlb::diffusion {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = std::string(HETLB_BINARY_DIR) + "/diffusion_topology_" + name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& spec, int nodes) {
  try {
    make_topology(spec, nodes);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Topology, Line) {
  const auto t = make_topology("line", 4);
  EXPECT_EQ(t.neighbours, (std::vector<std::vector<int>>{{1}, {0, 2}, {1, 3}, {2}}));
}

TEST(Topology, Ring) {
  const auto t = make_topology("ring", 5);
  EXPECT_EQ(t.neighbours[0], (std::vector<int>{1, 4}));
  EXPECT_EQ(t.neighbours[4], (std::vector<int>{0, 3}));
}

TEST(Topology, TorusIsFourRegular) {
  const auto t = make_topology("torus", 16);
  EXPECT_EQ(t.name, "torus 4x4");
  for (const auto& nb : t.neighbours) EXPECT_EQ(nb.size(), 4u);
  EXPECT_EQ(t.neighbours[0], (std::vector<int>{1, 3, 4, 12}));
  EXPECT_EQ(make_topology("torus", 12).name, "torus 3x4");
  EXPECT_NE(error_of("torus", 13).find("prime"), std::string::npos);
}

TEST(Topology, Hypercube) {
  const auto t = make_topology("hypercube", 8);
  EXPECT_EQ(t.neighbours[5], (std::vector<int>{1, 4, 7}));
  const std::string e = error_of("hypercube", 12);
  EXPECT_NE(e.find("12 nodes"), std::string::npos) << e;
  EXPECT_NE(e.find("power of 2"), std::string::npos) << e;
}

TEST(Topology, Complete) {
  const auto t = make_topology("complete", 4);
  EXPECT_EQ(t.neighbours[2], (std::vector<int>{0, 1, 3}));
  EXPECT_FALSE(error_of("line", 1).empty());
}

// Diameters against the known formulas (line N - 1, ring N / 2, torus R / 2 + C / 2, hypercube d).
TEST(Topology, Diameter) {
  EXPECT_EQ(diameter(make_topology("line", 2)), 1);
  EXPECT_EQ(diameter(make_topology("line", 64)), 63);
  EXPECT_EQ(diameter(make_topology("ring", 9)), 4);
  EXPECT_EQ(diameter(make_topology("ring", 10)), 5);
  EXPECT_EQ(diameter(make_topology("torus", 64)), 8);   // 8 x 8
  EXPECT_EQ(diameter(make_topology("torus", 24)), 5);   // 4 x 6
  EXPECT_EQ(diameter(make_topology("hypercube", 256)), 8);
  EXPECT_EQ(diameter(make_topology("complete", 5)), 1);
  EXPECT_EQ(make_topology("complete", kMaxCompleteNodes).neighbours[0].size(), static_cast<std::size_t>(kMaxCompleteNodes - 1));
  EXPECT_THROW(make_topology("complete", kMaxCompleteNodes + 1), Error);
  Topology split;
  split.neighbours = {{1}, {0}, {3}, {2}};
  EXPECT_EQ(diameter(split), -1);
}

TEST(EdgeList, ReadsASymmetricConnectedGraph) {
  const auto path = write_temp("ok.txt", "# square\n0 1\n1 0\n1 2\n2 1\n2 3\n3 2\n3 0\n0 3\n");
  const auto t = make_topology(path, 0);
  EXPECT_EQ(t.size(), 4);
  EXPECT_EQ(t.neighbours[0], (std::vector<int>{1, 3}));
  EXPECT_EQ(make_topology(path, 4).size(), 4);
}

TEST(EdgeList, RefusesBadFiles) {
  EXPECT_NE(error_of(write_temp("asym.txt", "0 1\n1 0\n1 2\n"), 0).find("asymmetric"), std::string::npos);
  EXPECT_NE(error_of(write_temp("disc.txt", "0 1\n1 0\n2 3\n3 2\n"), 0).find("disconnected"), std::string::npos);
  EXPECT_NE(error_of(write_temp("iso.txt", "0 1\n1 0\n"), 3).find("disconnected"), std::string::npos);
  EXPECT_NE(error_of(write_temp("big.txt", "0 5\n5 0\n"), 4).find("does not fit"), std::string::npos);
  EXPECT_NE(error_of(write_temp("loop.txt", "0 0\n"), 0).find("self loop"), std::string::npos);
  EXPECT_NE(error_of(write_temp("junk.txt", "0 x\n"), 0).find(":1:"), std::string::npos);
  EXPECT_NE(error_of(write_temp("dup.txt", "0 1\n0 1\n1 0\n"), 0).find("twice"), std::string::npos);
  EXPECT_NE(error_of("/nonexistent/graph.txt", 4).find("no such file"), std::string::npos);
  EXPECT_EQ(error_of(write_temp("asym2.txt", "0 1\n1 0\n1 2\n"), 0).find('\n'), std::string::npos);
}

}  // namespace
}  // namespace hetlb::diffusion

namespace hetlb::diffusion {
namespace {

// The registry: every built-in builds a valid topology of its own name at 16 nodes, refuses 0 nodes, and
// the help texts list the same names in the same order.
TEST(TopologyRegistry, EveryShapeBuildsUnderItsNameAndTheHelpListsThem) {
  std::string names;
  for (const TopologyShape& shape : builtin_topologies()) {
    EXPECT_TRUE(is_builtin_topology(shape.name));
    const Topology t = make_topology(shape.name, 16);
    EXPECT_EQ(t.size(), 16);
    EXPECT_EQ(t.name.substr(0, shape.name.size()), shape.name);
    validate_topology(t, shape.name);
    EXPECT_NE(error_of(shape.name, 0).find("expected a positive node count"), std::string::npos) << shape.name;
    names += shape.name + ", ";
  }
  EXPECT_EQ(topology_help(), names.substr(0, names.size() - 2) + " or an edge-list file");
  EXPECT_EQ(builtin_topology_choices(), "line, ring, torus, hypercube or complete");
  EXPECT_FALSE(is_builtin_topology("edges.txt"));
  EXPECT_FALSE(is_builtin_topology("auto"));
}

}  // namespace
}  // namespace hetlb::diffusion
