// hetlb simgrid-platform PLATFORM.json: the scatter platform as a SimGrid XML platform (for SMPI).
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

namespace hetlb::cli {

namespace {
struct Options {
  std::string platform, output, hostfile;
  io::SimgridExportOptions exp;
};

// Writes through a temporary file renamed into place: no partial file on failure.
void write_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target = fs::absolute(path);
  const fs::path tmp = target.parent_path() / fmt::format(".{}.{}.tmp", target.filename().string(), ::getpid());
  std::error_code ec;
  {
    std::ofstream out(tmp);
    if (!out || !(out << text) || !out.flush()) {
      fs::remove(tmp, ec);
      throw Error(fmt::format("{}: cannot write the file", path));
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error(fmt::format("{}: cannot write the file", path));
  }
}

void run(const Options& o) {
  const Platform platform = io::load_platform_file(o.platform);
  const std::string xml = io::scatter_platform_to_simgrid_xml(platform, o.exp);
  std::string hosts;  // processor k is host k of the hostfile, hence MPI rank k under smpirun
  for (const Processor& p : platform.processors) hosts += p.name + "\n";
  if (!o.output.empty()) write_file(o.output, xml);
  if (!o.hostfile.empty()) write_file(o.hostfile, hosts);
  if (o.output.empty()) std::cout << xml;
}
}  // namespace

void add_simgrid_platform_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("simgrid-platform", "Write a scatter platform as a SimGrid XML platform (SMPI)");
  sub->add_option("platform", o->platform, "platform JSON file")->required();
  sub->add_option("-o,--output", o->output, "XML file to write (default: standard output)");
  sub->add_option("--hostfile", o->hostfile, "also write an smpirun hostfile (processor k = rank k)");
  sub->add_option("--flops-per-item", o->exp.flops_per_item, "work of one item in flops")
      ->check(CLI::PositiveNumber);
  sub->add_option("--bytes-per-item", o->exp.bytes_per_item, "size of one item in bytes")
      ->check(CLI::PositiveNumber);
  sub->callback([o] { run(*o); });
}

}  // namespace hetlb::cli
