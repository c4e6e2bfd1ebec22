// Replay of a ring redistribution schedule on SimGrid, item by item.
#include "hetlb/sim/ring_replay.hpp"

#include <chrono>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "engine.hpp"
#include "hetlb/error.hpp"
#include "platform_loading.hpp"
#include "ring_platform.hpp"

namespace hetlb::sim {

namespace s4u = simgrid::s4u;

RingReplay replay_ring(const ring::Ring& r, const ring::Plan& plan) {
  const std::size_t n = r.size();
  if (r.bidirectional() && n == 2)
    throw Error("simulate ring: a bidirectional ring of 2 has two links between the same hosts; expected n >= 3");
  Count moved = 0;
  for (const ring::Transfer& t : plan.transfers) moved += t.items;
  if (moved > kRingReplayMaxItems)
    throw Error(fmt::format("simulate ring: {} items to move one message each; expected at most {}", moved,
                            kRingReplayMaxItems));
  auto engine = detail::make_engine(detail::exact_ring_network());
  detail::load_platform_text(*engine, detail::ring_platform_xml(r));

  RingReplay out;
  out.transfers.resize(plan.transfers.size());
  std::vector<Count> held = r.loads;
  std::vector<s4u::ConditionVariablePtr> arrived;
  std::vector<s4u::MutexPtr> lock;
  for (std::size_t i = 0; i < n; ++i) {
    arrived.push_back(s4u::ConditionVariable::create());
    lock.push_back(s4u::Mutex::create());
  }
  // Transfers per (sender, direction), in plan order; the receiver of a link takes them in order.
  std::vector<std::vector<std::size_t>> by_link(2 * n);
  for (std::size_t k = 0; k < plan.transfers.size(); ++k) {
    const ring::Transfer& t = plan.transfers[k];
    if (t.items > 0) by_link[2 * t.from + (t.to_succ ? 0 : 1)].push_back(k);
  }
  static char payload = 0;
  for (std::size_t link = 0; link < 2 * n; ++link) {
    if (by_link[link].empty()) continue;
    const std::size_t from = link / 2;
    const bool to_succ = link % 2 == 0;
    const std::size_t to = to_succ ? r.succ(from) : r.pred(from);
    const std::string box = fmt::format("link-{}", link);
    s4u::Actor::create(fmt::format("send-{}", link), s4u::Host::by_name(fmt::format("p{}", from)), [&, link, from, box] {
      for (std::size_t k : by_link[link]) {
        const ring::Transfer& t = plan.transfers[k];
        s4u::this_actor::sleep_until(t.start);
        for (Count m = 0; m < t.items; ++m) {
          {
            std::unique_lock<s4u::Mutex> guard(*lock[from]);
            while (held[from] == 0) arrived[from]->wait(guard);
            --held[from];
          }
          if (m == 0) out.transfers[k].start = s4u::Engine::get_clock();
          s4u::Mailbox::by_name(box)->put(&payload, 1);
        }
      }
    });
    s4u::Actor::create(fmt::format("recv-{}", link), s4u::Host::by_name(fmt::format("p{}", to)), [&, link, to, box] {
      for (std::size_t k : by_link[link]) {
        for (Count m = 0; m < plan.transfers[k].items; ++m) {
          s4u::Mailbox::by_name(box)->get<char>();
          std::unique_lock<s4u::Mutex> guard(*lock[to]);
          ++held[to];
          arrived[to]->notify_all();
        }
        out.transfers[k].end = s4u::Engine::get_clock();
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  detail::run_engine(*engine, "ring replay");
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const ReplayedTransfer& t : out.transfers) out.time = std::max(out.time, t.end);
  out.final_loads = held;
  for (std::size_t i = 0; i < n; ++i)
    if (held[i] != r.targets[i])
      throw Error(fmt::format("simulate ring: P_{} ends with {} items, expected T_{} = {} (the schedule does not "
                              "conserve the items it moves)", i, held[i], i, r.targets[i]));
  return out;
}

}  // namespace hetlb::sim
