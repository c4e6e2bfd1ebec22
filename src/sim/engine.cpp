// One SimGrid engine per process, configured for quiet, sanitizer-friendly runs.
#include "engine.hpp"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/interrupt.hpp"
#include "sanitizer.hpp"

namespace hetlb::sim::detail {

std::unique_ptr<simgrid::s4u::Engine> make_engine(const std::vector<std::string>& extra) {
  static bool created = false;
  if (created) throw Error("simulation: SimGrid allows one engine per process; expected one run per process");
  created = true;
  std::vector<std::string> args{"hetlb", "--log=root.thresh:error", "--log=xbt_cfg.thresh:error"};
  if constexpr (kAddressSanitizer) args.emplace_back("--cfg=contexts/factory:thread");
  args.insert(args.end(), extra.begin(), extra.end());
  // Extra SimGrid settings, e.g. HETLB_SIMGRID_CFG="--cfg=network/model:CM02 --log=..."
  if (const char* extra = std::getenv("HETLB_SIMGRID_CFG")) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) args.push_back(w);
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  auto engine = std::make_unique<simgrid::s4u::Engine>(&argc, argv.data());
  // SimGrid's own SIGINT handler prints its actors and exits 1: a command that stops cleanly on SIGINT
  // (hetlb/interrupt.hpp) gets its handler back.
  restore_interrupt_handlers();
  return engine;
}

void run_engine(simgrid::s4u::Engine& engine, const std::string& what) {
  static bool deadlocked = false;  // one engine per process
  static double date = 0;
  simgrid::s4u::Engine::on_deadlock_cb([] {
    deadlocked = true;
    date = simgrid::s4u::Engine::get_clock();
  });
  restore_interrupt_handlers();
  engine.run();
  if (deadlocked)
    throw Error(fmt::format("{}: deadlock at simulated {} s (activities that can never complete); expected every "
                            "activity to end: a defect of hetlb, please report the command",
                            what, date));
}

}  // namespace hetlb::sim::detail
