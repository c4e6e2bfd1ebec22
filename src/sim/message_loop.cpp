// Baseline for `hetlb-bench`: plain S4U messages with no load-balancing logic around them.
#include "hetlb/sim/message_loop.hpp"

#include <chrono>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "engine.hpp"
#include "platform_loading.hpp"

namespace hetlb::sim {

namespace s4u = simgrid::s4u;

LoopResult bare_message_loop(int nodes, int messages, bool desynchronised) {
  auto engine = detail::make_engine();
  static std::uint64_t dates = 0;
  s4u::Engine::on_time_advance_cb([](double) { ++dates; });
  const auto hosts = detail::load_platform(*engine, "cluster", nodes);
  static int payload = 0;
  for (int i = 0; i < nodes; ++i) {
    s4u::Mailbox* in = s4u::Mailbox::by_name("loop-" + std::to_string(i));
    s4u::Mailbox* out = s4u::Mailbox::by_name("loop-" + std::to_string((i + 1) % nodes));
    const std::uint64_t bytes = desynchronised ? 64 + 977 * static_cast<std::uint64_t>(i) : 64;
    s4u::Actor::create("loop", hosts[i], [in, out, messages, bytes] {
      for (int m = 0; m < messages; ++m) {
        s4u::CommPtr sent = out->put_async(&payload, bytes);
        in->get<int>();
        sent->wait();
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  detail::run_engine(*engine, "message loop");
  LoopResult r;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.events = static_cast<std::uint64_t>(nodes) * static_cast<std::uint64_t>(messages);
  r.dates = dates;
  return r;
}

}  // namespace hetlb::sim
