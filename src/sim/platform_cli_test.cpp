// The study's platforms through the command line: `hetlb simgrid-platform --study` writes what
// `hetlb simulate diffusion --platform cluster|grid` simulates, and platforms that cannot hold the
// nodes are refused in one line on stderr, a non-zero exit and no output file.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../../tests/cli/run_command.hpp"

namespace {

using CliRun = hetlb::testing::CommandResult;

using hetlb::testing::slurp;

std::string tmp(const std::string& name) { return std::string(HETLB_BINARY_DIR) + "/platform_cli_" + name; }

bool exists(const std::string& path) { return static_cast<bool>(std::ifstream(path)); }

CliRun hetlb(const std::string& args) {
  static const auto dir = hetlb::testing::scratch_dir("platform-cli");  // per process: ctest -j runs tests side by side
  return hetlb::testing::run_hetlb(args, dir);
}

void expect_refused(const std::string& args, const std::string& fragment) {
  hetlb::testing::expect_refused_in_one_line(hetlb(args), fragment, args);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(PlatformCli, ExportsTheGridSubsetAndItsNodeOrder) {
  const std::string xml = tmp("grid64.xml"), hosts = tmp("grid64.hosts");
  std::remove(xml.c_str());
  std::remove(hosts.c_str());
  const CliRun r = hetlb("simgrid-platform --study grid --nodes 64 -o " + xml + " --hostfile " + hosts);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string text = slurp(xml);
  EXPECT_EQ(count(text, "bandwidth=\"2.25GBps\" latency=\"500us\""), 9u);
  EXPECT_EQ(count(text, "<zoneRoute src=\"orsay-site\" dst=\"backbone\""), 1u);
  const std::string names = slurp(hosts);
  EXPECT_EQ(std::count(names.begin(), names.end(), '\n'), 64);
  EXPECT_EQ(names.rfind("bordeaux-bordeplage-1\nbordeaux-bordeplage-2\nbordeaux-bordereau-1\n", 0), 0u) << names;
  const CliRun cluster = hetlb("simgrid-platform --study cluster --nodes 4");
  ASSERT_EQ(cluster.exit_code, 0) << cluster.err;
  EXPECT_NE(cluster.out.find("radical=\"0-3\""), std::string::npos);
}

// The real subset: the same hosts, each cluster at g5k.xml's speed, g5k.xml's links.
TEST(PlatformCli, ExportsTheRealGridSubset) {
  for (int n : {16, 64, 256, 1024}) {
    const CliRun r = hetlb("simgrid-platform --study grid-real --nodes " + std::to_string(n) + " --hostfile /dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(count(r.out, "bandwidth=\"1250000000Bps\" latency=\"0.0001s\"/>"), 9u + count(r.out, "-access\" bandwidth") + count(r.out, "-uplink\" bandwidth"))
        << n;  // the 9 backbone links, each site's gateway link and each cluster's uplink
    EXPECT_EQ(count(r.out, "bw=\"125000000Bps\" lat=\"0.0001s\" bb_bw=\"1250000000Bps\" bb_lat=\"0.0001s\""),
              count(r.out, "<cluster "));
    EXPECT_EQ(count(r.out, "speed=\"1Gf\""), 0u);
    EXPECT_EQ(count(r.out, "2.25GBps"), 0u);
  }
  const CliRun r = hetlb("simgrid-platform --study grid-real --nodes 64");
  EXPECT_NE(r.out.find("id=\"rennes-parapide\" prefix=\"rennes-parapide-\" radical=\"1-1\" suffix=\"\" speed=\"30130000000f\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("id=\"lyon-capricorne\" prefix=\"lyon-capricorne-\" radical=\"1-2\" suffix=\"\" speed=\"4723300000f\""),
            std::string::npos);
  const CliRun grid = hetlb("simgrid-platform --study grid --nodes 64 --hostfile /dev/stdout -o /dev/null");
  const CliRun real = hetlb("simgrid-platform --study grid-real --nodes 64 --hostfile /dev/stdout -o /dev/null");
  EXPECT_EQ(grid.out, real.out);  // the same hosts in the same order
}

// Output through a link writes the file it names; a device (/dev/stdout) is written, not replaced.
TEST(PlatformCli, WritesThroughLinksAndDevices) {
  const std::string real = tmp("real.xml"), link = tmp("link.xml");
  std::remove(link.c_str());
  std::ofstream(real) << "old";
  ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
  ASSERT_EQ(hetlb("simgrid-platform --study cluster --nodes 2 -o " + link).exit_code, 0);
  char target[4096] = {};
  EXPECT_GT(readlink(link.c_str(), target, sizeof target - 1), 0);  // still a link
  EXPECT_NE(slurp(real).find("radical=\"0-1\""), std::string::npos);
  const CliRun r = hetlb("simgrid-platform --study grid --nodes 3 -o " + real + " --hostfile /dev/stdout");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "nancy-graphene-1\norsay-gdx-1\nrennes-paradent-1\n");
}

// Both files or neither: a hostfile that cannot be written is refused before the XML is written.
TEST(PlatformCli, AnUnwritableHostfileLeavesNoXml) {
  for (const std::string command : {"simgrid-platform --study grid", "diffusion-platform grid"}) {
    const std::string xml = tmp("orphan.xml");
    std::remove(xml.c_str());
    expect_refused(command + " --nodes 4 -o " + xml + " --hostfile " + tmp("no-such-folder/hosts"),
                   "hosts\": its folder does not exist; expected a writable path");
    EXPECT_FALSE(exists(xml)) << command;
  }
}

// Simulating on the exported file is simulating on --platform grid (grid-real): same hosts, same metrics.
TEST(PlatformCli, TheExportedGridIsTheSimulatedOne) {
 for (const std::string platform : {"grid", "grid-real"}) {
  SCOPED_TRACE(platform);
  const std::string xml = tmp(platform + "16.xml");
  ASSERT_EQ(hetlb("simgrid-platform --study " + platform + " --nodes 16 -o " + xml).exit_code, 0);
  const std::string run = "simulate diffusion --nodes 16 --topology torus --initial random --seed 5 --load-per-node 100 "
                          "--iterations 20 --format json --platform ";
  const CliRun a = hetlb(run + platform), b = hetlb(run + xml);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  for (auto* j : {&ja, &jb}) {
    j->erase("wall_seconds");
    j->erase("events_per_wall_second");
  }
  ja.erase("platform");
  jb.erase("platform");
  EXPECT_EQ(ja, jb);
  EXPECT_TRUE(ja["converged"].get<bool>());
 }
}

TEST(PlatformCli, RefusesPlatformsThatCannotHoldTheNodes) {
  const std::string small = tmp("two_hosts.xml"), trace = tmp("refused.csv");
  ASSERT_EQ(hetlb("simgrid-platform --study cluster --nodes 2 -o " + small).exit_code, 0);
  std::remove(trace.c_str());
  expect_refused("simulate diffusion --nodes 8 --topology ring --trace " + trace + " --platform " + small,
                 "platform \"" + small + "\": 2 hosts for 8 nodes; expected at least one host per node");
  EXPECT_FALSE(exists(trace));
  expect_refused("simulate diffusion --nodes 2048 --topology ring --platform grid",
                 "platform \"grid\": 1528 hosts for 2048 nodes; expected at least one host per node");
  expect_refused("simulate diffusion --nodes 8 --platform mesh", "platform \"mesh\": no such file");
  const std::string out = tmp("refused.xml");
  std::remove(out.c_str());
  expect_refused("simgrid-platform --study grid --nodes 1529 -o " + out, "1529 hosts; expected 1 to 1528");
  expect_refused("simgrid-platform --study mesh --nodes 4 -o " + out, "--study mesh: unknown platform");
  expect_refused("simgrid-platform --study grid --nodes 0 -o " + out, "--nodes: value 0: expected a whole number from 1");
  expect_refused("simgrid-platform -o " + out, "no platform");
  expect_refused("simgrid-platform --study grid -o " + out, "--nodes");
  // A host of speed 0 or a link of bandwidth 0: SimGrid aborted ("The Impossible Did Happen", exit 134).
  const std::string still = tmp("still.xml");
  const std::string xml_head = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">
)";
  auto two_hosts = [&](const std::string& speed, const std::string& bandwidth) {
    std::ofstream(still) << xml_head << "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"" << speed
                         << "\"/><link id=\"l\" bandwidth=\"" << bandwidth
                         << "\" latency=\"0s\"/><route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route></zone></platform>\n";
  };
  two_hosts("0f", "1GBps");
  expect_refused("simulate diffusion --nodes 2 --topology line --platform " + still,
                 "host \"b\" computes at 0 flop/s; expected a positive speed");
  two_hosts("1Gf", "0Bps");
  expect_refused("simulate diffusion --nodes 2 --topology line --platform " + still,
                 "link \"l\" has bandwidth 0 B/s");
  expect_refused("simulate scatter " + still + " --items 10", "link \"l\" has bandwidth 0 B/s");
  // A missing route: SimGrid aborted the first message over it. Routes that only a sealed platform
  // has (Floyd: a to c through b) were missed by the scatter replay before.
  std::ofstream(still) << xml_head << R"(<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
<link id="l" bandwidth="1GBps" latency="1ms"/><route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>
)";
  expect_refused("simulate diffusion --nodes 3 --topology line --platform " + still,
                 "no route from host \"b\" to host \"c\"");
  expect_refused("simulate scatter " + still + " --items 10", "no route from host \"a\" to host \"c\"");
  const std::string floyd = tmp("floyd.xml");
  std::ofstream(floyd) << R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Floyd">
<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
<link id="ab" bandwidth="1GBps" latency="1ms"/><link id="bc" bandwidth="1GBps" latency="1ms"/>
<route src="a" dst="b"><link_ctn id="ab"/></route><route src="b" dst="c"><link_ctn id="bc"/></route>
</zone></platform>
)";
  const CliRun relayed = hetlb("simulate scatter " + floyd + " --items 10 --format json");
  EXPECT_EQ(relayed.exit_code, 0) << relayed.err;
  const CliRun line = hetlb("simulate diffusion --nodes 3 --topology line --iterations 5 --platform " + floyd);
  EXPECT_EQ(line.exit_code, 0) << line.err;
  // Speeds and bandwidths beyond the largest double (written as "inff", which SimGrid cannot read).
  const std::string grid1999 = std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json";
  expect_refused("simgrid-platform " + grid1999 + " --flops-per-item 1e308 -o " + out,
                 "processor 'dinadan': speed inf flops/s");
  expect_refused("simgrid-platform " + grid1999 + " --bytes-per-item 1e308 -o " + out, "bandwidth inf B/s");
  expect_refused("diffusion-platform --unit-bytes inf -o " + out, "--unit-bytes inf: expected a finite number");
  expect_refused("diffusion-platform --unit-bytes 1e308 -o " + out, "expected a finite bandwidth");
  EXPECT_FALSE(exists(out));
}

}  // namespace
