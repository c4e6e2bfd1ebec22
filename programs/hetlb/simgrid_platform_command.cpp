// hetlb simgrid-platform PLATFORM.json: the scatter platform as a SimGrid XML platform (for SMPI);
// hetlb simgrid-platform --study cluster|grid|grid-real --nodes N: the diffusion study's platform, as simulated.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/io/simgrid_platform.hpp"
#include "hetlb/output_path.hpp"
#include "hetlb/sim/platform.hpp"
#include "number_checks.hpp"

namespace hetlb::cli {

namespace {
struct SimgridPlatformOptions {
  std::string platform, output, hostfile, study;
  int nodes = 0;
  io::SimgridExportOptions exp;
};

void run_simgrid_platform(const SimgridPlatformOptions& o) {
  std::string xml, hosts;  // host k of the hostfile is processor k (MPI rank k), or node k of a simulation
  if (!o.study.empty()) {
    if (!sim::is_study_platform(o.study))
      throw Error(fmt::format("--study {}: unknown platform; expected cluster, grid or grid-real", o.study));
    xml = sim::study_platform_xml(o.study, o.nodes);
    if (!o.hostfile.empty())
      for (const std::string& h : sim::study_host_names(o.study, o.nodes)) hosts += h + "\n";
  } else if (!o.platform.empty()) {
    const Platform platform = io::load_platform_file(o.platform);
    xml = io::scatter_platform_to_simgrid_xml(platform, o.exp);
    for (const Processor& p : platform.processors) hosts += p.name + "\n";
  } else {
    throw Error("simgrid-platform: no platform; expected PLATFORM.json or --study cluster|grid|grid-real --nodes N");
  }
  // Both files or neither: the paths are checked before any work, and the files appear together once
  // both are written (OutputTransaction, in main).
  if (!o.output.empty()) check_writable("--output", o.output);  // never an input, nor the hostfile
  if (!o.hostfile.empty()) check_writable("--hostfile", o.hostfile);
  if (!o.output.empty()) write_file("--output", o.output, xml);
  if (!o.hostfile.empty()) write_file("--hostfile", o.hostfile, hosts);
  if (o.output.empty()) std::cout << xml;
}
}  // namespace

void add_simgrid_platform_command(CLI::App& app) {
  auto o = std::make_shared<SimgridPlatformOptions>();
  CLI::App* sub = app.add_subcommand(
      "simgrid-platform", "Write a scatter platform, or a diffusion study platform, as a SimGrid XML platform");
  auto* file = sub->add_option("platform", o->platform, "platform JSON file");
  auto* study = sub->add_option("--study", o->study, "the diffusion study's platform: cluster, grid (Grid'5000 subset, normalised) or grid-real (its real speeds and links)");
  // The same bound as diffusion-platform and simulate (2^20): the hostfile alone is then at most 14 MB.
  auto* nodes = sub->add_option("--nodes", o->nodes, "hosts of the study platform (cluster: 1 to 1048576, grid and grid-real: 1 to 1528)")
                    ->check(whole_number<int>(1, 1 << 20));
  file->excludes(study);
  study->needs(nodes);
  nodes->needs(study);
  sub->add_option("-o,--output", o->output, "XML file to write (default: standard output)");
  sub->add_option("--hostfile", o->hostfile, "also write the host names, one a line (processor k = rank k; node k)");
  sub->add_option("--flops-per-item", o->exp.flops_per_item, "work of one item in flops")
      ->check(positive())
      ->excludes(study);
  sub->add_option("--bytes-per-item", o->exp.bytes_per_item, "size of one item in bytes")
      ->check(positive())
      ->excludes(study);
  sub->callback([o] { run_simgrid_platform(*o); });
}

}  // namespace hetlb::cli
