// hetlb diffusion-platform cluster|grid --nodes N [--unit-bytes B] [-o FILE.xml] [--hostfile FILE]:
// the simulator's diffusion platform as a SimGrid XML file and an smpirun hostfile (node k = host k =
// rank k), so that `hetlb-diffuse` under smpirun and `hetlb simulate diffusion --platform FILE.xml` run
// on the same machine. With --unit-bytes B, bandwidths are scaled so that B bytes cost what the
// simulator's load unit (125,000 bytes) costs on the original platform: an item of B bytes is a unit.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>

#include <fmt/format.h>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"
#include "hetlb/sim/platform.hpp"

namespace hetlb::cli {

namespace {
struct DiffusionPlatformOptions {
  std::string kind = "cluster", output, hostfile;
  int nodes = 16;
  double unit_bytes = sim::kUnitBytes;
};

// bw="125MBps" / bandwidth="2.25GBps" -> the same times unit_bytes / 125,000, in Bps.
std::string scale_bandwidths(const std::string& xml, double factor) {
  const std::regex bw(R"re((bw|bandwidth)="([0-9.]+)(G|M|k|)Bps")re");
  std::string out;
  auto it = std::sregex_iterator(xml.begin(), xml.end(), bw);
  std::size_t at = 0;
  for (; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const double unit = m[3] == "G" ? 1e9 : m[3] == "M" ? 1e6 : m[3] == "k" ? 1e3 : 1.0;
    out += xml.substr(at, static_cast<std::size_t>(m.position(0)) - at);
    const double scaled = std::stod(m[2]) * unit * factor;
    if (!std::isfinite(scaled))
      throw Error(fmt::format("--unit-bytes: bandwidth {}{}Bps scaled by {} is {}; expected a finite bandwidth (fewer "
                              "bytes per load unit)",
                              m[2].str(), m[3].str(), factor, scaled));
    out += fmt::format("{}=\"{}Bps\"", m[1].str(), scaled);
    at = static_cast<std::size_t>(m.position(0) + m.length(0));
  }
  return out + xml.substr(at);
}

void run_diffusion_platform(const DiffusionPlatformOptions& o) {
  if (!(o.unit_bytes >= 1) || !std::isfinite(o.unit_bytes))
    throw Error(fmt::format("--unit-bytes {}: expected a finite number of bytes per load unit, at least 1", o.unit_bytes));
  std::string xml = sim::study_platform_xml(o.kind, o.nodes);
  xml = scale_bandwidths(xml, o.unit_bytes / sim::kUnitBytes);
  std::string hosts;  // the simulator's node k runs on the k-th host in natural order
  for (const std::string& h : sim::study_host_names(o.kind, o.nodes)) hosts += h + "\n";
  // Both files or neither: checked before any work, and they appear together once both are written
  // (OutputTransaction, in main).
  if (!o.output.empty()) check_writable("--output", o.output);  // never an input, nor the hostfile
  if (!o.hostfile.empty()) check_writable("--hostfile", o.hostfile);
  if (!o.output.empty()) write_file("--output", o.output, xml);
  if (!o.hostfile.empty()) write_file("--hostfile", o.hostfile, hosts);
  if (o.output.empty()) std::cout << xml;
}
}  // namespace

void add_diffusion_platform_command(CLI::App& app) {
  auto o = std::make_shared<DiffusionPlatformOptions>();
  CLI::App* sub = app.add_subcommand("diffusion-platform",
                                     "Write the diffusion simulator's platform as SimGrid XML and a hostfile (SMPI)");
  sub->add_option("kind", o->kind, "cluster, grid or grid-real")->check(CLI::IsMember({"cluster", "grid", "grid-real"}))->capture_default_str();
  sub->add_option("--nodes", o->nodes, "hosts (one per rank)")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  sub->add_option("--unit-bytes", o->unit_bytes, "bytes of one load unit (bandwidths scaled; default: unscaled)")
      ->capture_default_str();
  sub->add_option("-o,--output", o->output, "XML file to write (default: standard output)");
  sub->add_option("--hostfile", o->hostfile, "also write an smpirun hostfile (node k = rank k)");
  sub->callback([o] { run_diffusion_platform(*o); });
}

}  // namespace hetlb::cli
