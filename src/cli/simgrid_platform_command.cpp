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
  std::string platform, output;
  io::SimgridExportOptions exp;
};

void run(const Options& o) {
  const std::string xml = io::scatter_platform_to_simgrid_xml(io::load_platform_file(o.platform), o.exp);
  if (o.output.empty()) {
    std::cout << xml;
    return;
  }
  namespace fs = std::filesystem;
  const fs::path target = fs::absolute(o.output);
  const fs::path tmp = target.parent_path() / fmt::format(".{}.{}.tmp", target.filename().string(), ::getpid());
  {
    std::ofstream out(tmp);
    if (!out || !(out << xml)) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw Error(fmt::format("{}: cannot write the SimGrid platform", o.output));
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) throw Error(fmt::format("{}: cannot write the SimGrid platform", o.output));
}
}  // namespace

void add_simgrid_platform_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("simgrid-platform", "Write a scatter platform as a SimGrid XML platform (SMPI)");
  sub->add_option("platform", o->platform, "platform JSON file")->required();
  sub->add_option("-o,--output", o->output, "XML file to write (default: standard output)");
  sub->add_option("--flops-per-item", o->exp.flops_per_item, "work of one item in flops")
      ->check(CLI::PositiveNumber);
  sub->add_option("--bytes-per-item", o->exp.bytes_per_item, "size of one item in bytes")
      ->check(CLI::PositiveNumber);
  sub->callback([o] { run(*o); });
}

}  // namespace hetlb::cli
