// The SimGrid platform written from a scatter platform: SimGrid loads it, and a transfer from the
// root to a host over it takes the modelled Tcomm (network model CM02 without cross-traffic, the
// settings under which a SimGrid link behaves as the linear/affine model).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <simgrid/s4u.hpp>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/io/simgrid_platform.hpp"

namespace hetlb {

TEST(SimgridExport, TransfersTakeTheModelledTime) {
  Platform pf = io::load_platform_file(std::string(HETLB_SOURCE_DIR) + "/examples/grid1999.json");
  pf.processors[1].comm = CostFunction::affine(0.002, pf.processors[1].comm.per_item());  // pellinore
  io::SimgridExportOptions opt;
  opt.bytes_per_item = 500;
  opt.flops_per_item = 2e8;
  const std::string xml = io::scatter_platform_to_simgrid_xml(pf, opt);
  const auto path = std::filesystem::temp_directory_path() / ("hetlb-export-" + std::to_string(::getpid()) + ".xml");
  std::ofstream(path) << xml;

  int argc = 3;
  std::string a0 = "test", a1 = "--cfg=network/model:CM02", a2 = "--cfg=network/crosstraffic:0";
  char* argv[] = {a0.data(), a1.data(), a2.data(), nullptr};
  simgrid::s4u::Engine e(&argc, argv);
  e.load_platform(path.string());
  std::filesystem::remove(path);
  ASSERT_EQ(e.get_host_count(), 16u);
  auto* dinadan = e.host_by_name("dinadan");
  auto* pellinore = e.host_by_name("pellinore");
  EXPECT_NEAR(pellinore->get_speed(), 2e8 / 0.009365, 1e-3);
  const double items = 10000;
  double arrived = -1, computed = -1;
  simgrid::s4u::Actor::create("root", dinadan, [&] {
    simgrid::s4u::Mailbox::by_name("p")->put(new double(items), static_cast<uint64_t>(items * opt.bytes_per_item));
  });
  simgrid::s4u::Actor::create("worker", pellinore, [&] {
    std::unique_ptr<double> x(simgrid::s4u::Mailbox::by_name("p")->get<double>());
    arrived = simgrid::s4u::Engine::get_clock();
    simgrid::s4u::this_actor::execute(*x * opt.flops_per_item);
    computed = simgrid::s4u::Engine::get_clock();
  });
  e.run();
  EXPECT_NEAR(arrived, pf.processors[1].comm(static_cast<Count>(items)), 1e-6);       // 0.002 + 1.12e-5 * 1e4
  EXPECT_NEAR(computed - arrived, pf.processors[1].compute(static_cast<Count>(items)), 1e-6);  // 0.009365 * 1e4
}

TEST(SimgridExport, RefusesTables) {
  Platform pf = io::parse_platform_json(
      R"({"processors": [{"name": "a", "compute": {"table": [[1, 1]]}, "comm": {"per_item": 0}}]})");
  EXPECT_THROW(io::scatter_platform_to_simgrid_xml(pf), Error);
}

}  // namespace hetlb
