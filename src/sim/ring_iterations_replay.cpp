// Replay of an iterative ring application with its redistributions on SimGrid (S4U actors, barriers).
#include "hetlb/sim/ring_iterations_replay.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include <fmt/format.h>
#include <simgrid/s4u.hpp>

#include "engine.hpp"
#include "hetlb/error.hpp"
#include "hetlb/progress.hpp"
#include "hetlb/ring/plan.hpp"
#include "platform_loading.hpp"
#include "ring_platform.hpp"

namespace hetlb::sim {

namespace s4u = simgrid::s4u;

RingIterationsReplay replay_ring_iterations(const ring::IterativeApp& app, const ring::Drift& drift,
                                            const std::vector<std::size_t>& redistributed_at,
                                            std::size_t iterations, const std::function<bool()>& stop) {
  ring::validate(app);
  const std::size_t n = app.ring.size();
  if (static_cast<double>(n) * static_cast<double>(iterations) > kRingIterationsReplayLimit)
    throw Error(fmt::format("--engine simgrid: {} iterations x {} processors; expected at most {:g}", iterations, n,
                            kRingIterationsReplayLimit));
  if (app.ring.bidirectional() && n == 2)
    throw Error("--engine simgrid: a bidirectional ring of 2 has two links between the same hosts; expected n >= 3");
  auto engine = detail::make_engine(detail::exact_ring_network());
  detail::load_platform_text(*engine, detail::ring_platform_xml(app.ring, app.speeds));

  const Count total = std::accumulate(app.ring.loads.begin(), app.ring.loads.end(), Count{0});
  const std::vector<Count> targets = ring::balanced_targets(total, app.speeds);
  std::vector<char> redistribute(iterations, 0);
  for (std::size_t t : redistributed_at)
    if (t < iterations) redistribute[t] = 1;

  RingIterationsReplay out;
  std::vector<Count> held = app.ring.loads;  // the items each processor holds in the simulation
  ring::Plan plan;                          // the current redistribution's, computed by actor 0
  std::vector<std::vector<std::size_t>> sends(n), receives(n);
  std::string failure;
  const s4u::BarrierPtr barrier = s4u::Barrier::create(static_cast<unsigned>(n));
  ring::Delta delta;
  std::size_t end = iterations;  // moved before `iterations` by `stop`, between two barriers

  for (std::size_t i = 0; i < n; ++i) {
    s4u::Actor::create(fmt::format("P{}", i), s4u::Host::by_name(fmt::format("p{}", i)), [&, i] {
      for (std::size_t t = 0; t < end; ++t) {
        if (redistribute[t]) {
          if (i == 0) {  // the plan from the simulated loads; no simulated time
            ring::Ring r = app.ring;
            r.loads = held;
            r.targets = targets;
            plan = ring::plan_redistribution(r, ring::iterative_plan_options(n));
            for (auto& v : sends) v.clear();
            for (auto& v : receives) v.clear();
            for (std::size_t k = 0; k < plan.transfers.size(); ++k) {
              const ring::Transfer& x = plan.transfers[k];
              if (x.items == 0) continue;
              sends[x.from].push_back(k);
              receives[x.to].push_back(k);
              out.data_moved += x.items;
            }
            for (auto& v : sends)
              std::stable_sort(v.begin(), v.end(), [&](std::size_t a, std::size_t b) {
                return plan.transfers[a].start < plan.transfers[b].start;
              });
          }
          barrier->wait();
          const double start = s4u::Engine::get_clock();
          std::vector<s4u::CommPtr> comms;
          std::vector<Count*> got(receives[i].size(), nullptr);
          for (std::size_t m = 0; m < receives[i].size(); ++m)
            comms.push_back(s4u::Mailbox::by_name(fmt::format("x{}-{}", t, receives[i][m]))->get_async<Count>(&got[m]));
          for (std::size_t k : sends[i]) {
            ring::Transfer& x = plan.transfers[k];
            s4u::this_actor::sleep_until(start + x.start);
            held[i] -= x.items;
            comms.push_back(s4u::Mailbox::by_name(fmt::format("x{}-{}", t, k))
                                ->put_async(&x.items, static_cast<std::uint64_t>(x.items)));
          }
          s4u::Comm::wait_all(comms);
          for (Count* items : got) held[i] += *items;
          barrier->wait();
          if (i == 0) {
            out.redistribution_time += s4u::Engine::get_clock() - start;
            ++out.redistributions;
            if (held != targets && failure.empty())
              failure = fmt::format("--engine simgrid: the redistribution before iteration {} ends on other loads "
                                    "than the targets", t);
          }
        }
        const double start = s4u::Engine::get_clock();
        if (held[i] > 0) s4u::this_actor::execute(static_cast<double>(held[i]) * app.compute_cost);
        barrier->wait();
        if (i == 0) {  // the drift, between two barriers
          out.compute_time += s4u::Engine::get_clock() - start;
          drift.delta(t, delta);
          ring::apply_delta(held, delta);
          if (stop && t + 1 < end && stop()) end = t + 1;  // every actor reads it after the barrier
          if (progress_wanted())
            report_progress([&] { return fmt::format("ring iterations replay: {} of {} ({:.0f}%)", t + 1, iterations,
                                                     100.0 * static_cast<double>(t + 1) / static_cast<double>(iterations)); });
        }
        barrier->wait();
      }
    });
  }
  const auto wall = std::chrono::steady_clock::now();
  detail::run_engine(*engine, "ring iterations replay");
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  if (!failure.empty()) throw Error(failure);
  out.total_time = s4u::Engine::get_clock();
  out.final_loads = held;
  out.iterations_done = end;
  return out;
}

}  // namespace hetlb::sim
