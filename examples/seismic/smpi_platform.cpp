// hetlb-seismic-smpi-platform: a SimGrid platform for running hetlb-seismic under SMPI from a hetlb
// platform JSON (RR-4770, Table 1 for examples/grid1999.json).
//   hetlb-seismic-smpi-platform PLATFORM.json OUT.xml OUT.hostfile [--ray-bytes 32]
// Processor k (after count expansion) becomes host k of the hostfile, hence rank k. Its speed is
// 1 / compute per_item "flops" per second: hetlb-seismic built for SMPI executes one flop per ray, so
// a ray costs exactly the platform's per-item time. Every host has its own link of bandwidth
// ray_bytes / comm per_item to a central switch (the root's link is 1 TB/s), so the root-to-host
// transfer of a ray costs the platform's per-item communication time. Linear models only.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"

namespace {

std::string xml(const hetlb::Platform& platform, double ray_bytes) {
  std::string out =
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n<zone id=\"star\" routing=\"Full\">\n";
  const auto& ps = platform.processors;
  for (const hetlb::Processor& p : ps) {
    if (!p.compute.is_linear() || !p.comm.is_linear() || p.compute.per_item() <= 0)
      throw hetlb::Error(fmt::format("processor {}: expected linear costs with compute per_item > 0", p.name));
    out += fmt::format("  <host id=\"{}\" speed=\"{:.9g}f\"/>\n", p.name, 1.0 / p.compute.per_item());
  }
  for (std::size_t k = 0; k < ps.size(); ++k) {
    const double comm = k == platform.root ? 0.0 : ps[k].comm.per_item();
    out += fmt::format("  <link id=\"link-{}\" bandwidth=\"{:.9g}Bps\" latency=\"0s\"/>\n", ps[k].name,
                       comm > 0 ? ray_bytes / comm : 1e12);
  }
  for (std::size_t i = 0; i < ps.size(); ++i)
    for (std::size_t j = i + 1; j < ps.size(); ++j)
      out += fmt::format("  <route src=\"{0}\" dst=\"{1}\"><link_ctn id=\"link-{0}\"/><link_ctn id=\"link-{1}\"/></route>\n",
                         ps[i].name, ps[j].name);
  return out + "</zone>\n</platform>\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && !(argc == 6 && std::string(argv[4]) == "--ray-bytes")) {
    std::fprintf(stderr, "usage: %s PLATFORM.json OUT.xml OUT.hostfile [--ray-bytes 32]\n", argv[0]);
    return 2;
  }
  try {
    const double ray_bytes = argc == 6 ? std::atof(argv[5]) : 32.0;
    if (!(ray_bytes > 0)) throw hetlb::Error("--ray-bytes: expected a positive number of bytes");
    const hetlb::Platform platform = hetlb::io::load_platform_file(argv[1]);
    std::ofstream(argv[2]) << xml(platform, ray_bytes);
    std::ofstream hosts(argv[3]);
    for (const hetlb::Processor& p : platform.processors) hosts << p.name << "\n";
    if (!hosts) throw hetlb::Error(fmt::format("{}: cannot write the hostfile", argv[3]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetlb-seismic-smpi-platform: %s\n", e.what());
    return 1;
  }
  return 0;
}
