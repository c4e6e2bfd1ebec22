// Global steps in the simulation (docs/simulation.md, "Global steps"): the balancers global and hybrid
// of the MPI runtime (docs/runtime.md), deciding with the same pure code (balance::plan_global_step,
// balance::HybridTrigger) on the simulated, measured quantities, and costing on the platform what the
// runtime's step costs there:
//  1. diffusion pauses (no decision, report or release) until no message is in flight, so that every
//     unit of load is held by exactly one node (taken in or received);
//  2. the collective, the runtime's all-gather (Bruck's) over the platform's links: in the round of
//     distance d = 1, 2, 4, ... every node sends the min(d, n - d) contributions it holds (control
//     messages) to node - d, and the round ends when all have arrived; hosts shared by nodes exchange
//     nothing;
//  3. the plan and the decision, the same on every node;
//  4. a step: diffusion's state restarts on the load held (nothing owed, no estimate, as the runtime's
//     reset), then one SimGrid communication per transfer, any to any, routed on the platform, 125,000
//     bytes per load unit; each receiver holds its load when its message arrives;
//  5. diffusion resumes.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "diffusion_world.hpp"
#include "hetlb/balance/global_step.hpp"
#include "hetlb/balance/hybrid_trigger.hpp"
#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/error.hpp"
#include "platform_loading.hpp"
#include "unlike_speeds.hpp"

namespace hetlb::sim::detail {

namespace s4u = simgrid::s4u;

namespace {
// The wake-up of a node whose load changed outside its computing activity.
void load_changed(World& w, Node& n, double date) {
  if (w.curve && !w.finished) w.curve->set_load(n.id, n.state.real(), date);  // after the end: its final loads
  if (n.waiting) n.data_cv->notify_all();
}

// One message of `bytes` from `from` to `to`, or none on one host. Throws hetlb::Error without a route.
s4u::CommPtr send_between(World& w, s4u::Host* from, s4u::Host* to, double bytes) {
  if (from == to) return nullptr;
  check_route(from, to, w.config.platform);
  return s4u::Comm::sendto_async(from, to, static_cast<std::uint64_t>(std::max(1.0, bytes)));
}

void wait_all(std::vector<s4u::CommPtr>& comms) {
  std::erase(comms, nullptr);
  s4u::Comm::wait_all(comms);
  comms.clear();
}

// Pause diffusion and wait until nothing is in flight; false if the run ended meanwhile.
bool quiesce(World& w) {
  w.paused = true;
  std::unique_lock lock(*w.pause_mutex);
  while ((w.in_flight > 0 || w.ctrl_in_flight > 0) && !w.finished) w.quiet->wait(lock);
  return !w.finished;
}

void resume(World& w) {
  w.paused = false;
  w.resumed->notify_all();
  for (Node& n : w.nodes)
    if (n.parked) {  // a parked balancer reports the state after the step at once
      n.parked = false;
      n.news = true;
      n.balancer->resume();
    }
}

// Diffusion's state restarts on the load held: nothing pending or owed, no estimate of a neighbour,
// no report sent (the runtime's reset_diffusion_state).
void restart_diffusion(World& w, Node& n) {
  const double held = n.state.real() + n.state.pending();
  const double speed = n.state.speed();
  n.state = diffusion::NodeState(held, n.state.degree(), w.config.virtual_load, w.config.estimates, w.config.balance,
                                 speed);
  n.ctrl_fifo.clear();
  std::fill(n.last_sent.begin(), n.last_sent.end(), diffusion::Report{});
  std::fill(n.sent_any.begin(), n.sent_any.end(), false);
}

double held_total(const World& w) {
  std::vector<double> held;
  for (const Node& n : w.nodes) held.push_back(n.state.real() + n.state.pending());
  return diffusion::total_load(held);
}
}  // namespace

void wait_while_paused(World& w) {
  std::unique_lock lock(*w.pause_mutex);
  while (w.paused && !w.finished) w.resumed->wait(lock);
}

void global_step_activity(World& w) {
  const std::size_t n = w.nodes.size();
  const double period = w.min_lb;
  balance::HybridTrigger trigger(kGlobalMinInterval, kGlobalMargin);
  long gap = 1, next = 1;
  double seconds_per_work = 0;  // measured by the last step; 0 until one
  for (long k = 1;; ++k) {
    s4u::this_actor::sleep_until(static_cast<double>(k) * period);
    if (w.finished) return;
    if (k < next || w.tracker.in_band_count() == static_cast<int>(n)) continue;
    if (!quiesce(w)) return;
    ++w.global_considered;
    GlobalStepEvent event;
    event.date = s4u::Engine::get_clock();
    event.period = k;
    try {
      // The contributions, as the nodes hold them now: work held, speed (1 balancing load), the
      // measured computing seconds of the last iteration (or of the one running, so far), iterations done.
      std::vector<double> work, speed;
      balance::TriggerInputs in;
      long done = std::numeric_limits<long>::max();
      for (const Node& node : w.nodes) {
        work.push_back(node.state.real() + node.state.pending());
        speed.push_back(w.config.balance == diffusion::Balance::time ? current_speed(node.host) / kGigaflops : 1.0);
        // A computation still running has lasted at least this long already.
        const double running = !node.waiting && !node.iteration_recorded ? event.date - node.iteration_start : 0.0;
        in.iteration_seconds = std::max({in.iteration_seconds, node.last_compute_seconds, running});
        done = std::min(done, static_cast<long>(node.comp_iterations));
      }
      const double before = diffusion::total_load(work);
      // The runtime's all-gather (Bruck's, src/mpi/diffusion/all_gather.hpp): in the round of distance
      // d every node sends the min(d, n - d) contributions it holds to node - d; log2(n) rounds.
      std::vector<s4u::CommPtr> comms;
      for (std::size_t d = 1; d < n; d *= 2) {
        const double blocks = static_cast<double>(std::min(d, n - d));
        for (std::size_t i = 0; i < n; ++i)
          comms.push_back(send_between(w, w.nodes[i].host, w.nodes[(i + n - d) % n].host, kControlBytes * blocks));
        wait_all(comms);
      }
      event.collective_seconds = s4u::Engine::get_clock() - event.date;

      // Whole units with integer load, else a millionth of the average (the load is divisible).
      const double quantum = w.config.strategy.integer ? 1.0 : std::max(before / static_cast<double>(n) * 1e-6, 1e-300);
      const balance::GlobalStep plan = balance::plan_global_step(work, speed, quantum);
      // Iterations left: as the runtime's without a declared total (as many as done, at least those the
      // convergence criterion needs), and no more than the time limit still allows.
      in.iterations_left = balance::iterations_left(done, 0, w.config.convergence_iterations);
      if (in.iteration_seconds > 0)
        in.iterations_left = std::min(in.iterations_left,
                                      std::ceil((w.time_limit - s4u::Engine::get_clock()) /
                                                std::max(in.iteration_seconds, w.min_comp)));
      // The step's synchronisation: one of the gather's rounds (the gather itself is paid, step or not).
      in.collective_seconds = balance::one_round_seconds(event.collective_seconds, n);
      in.seconds_per_work = seconds_per_work;
      const balance::TriggerDecision d = w.config.balancer == balance::Balancer::hybrid
                                             ? trigger.decide(k, plan, in)
                                             : trigger.decide_global(k, plan, in);
      if (!d.step || w.finished) {
        gap = std::min(2 * gap, kGlobalMaxGap);
        next = k + gap;
        resume(w);
        continue;
      }
      gap = 1;
      next = k + kGlobalMinInterval;
      event.gain = d.gain;
      event.cost = d.cost;

      for (Node& node : w.nodes) restart_diffusion(w, node);
      const double start = s4u::Engine::get_clock();
      struct Arrival {
        std::size_t to;
        double load;
      };
      std::vector<s4u::CommPtr> transfers;
      std::vector<Arrival> arrivals;
      for (const balance::Transfer& t : plan.transfers) {
        Node& from = w.nodes[t.from];
        from.state.add_own(-t.work);
        load_changed(w, from, start);
        transfers.push_back(send_between(w, from.host, w.nodes[t.to].host, t.work * kUnitBytes));
        arrivals.push_back({t.to, t.work});
      }
      for (std::size_t i = 0; i < transfers.size(); ++i)  // on one host: held at once
        if (!transfers[i]) {
          Node& to = w.nodes[arrivals[i].to];
          to.state.add_own(arrivals[i].load);
          load_changed(w, to, start);
        }
      for (std::size_t i = transfers.size(); i-- > 0;)
        if (!transfers[i]) {
          transfers.erase(transfers.begin() + static_cast<std::ptrdiff_t>(i));
          arrivals.erase(arrivals.begin() + static_cast<std::ptrdiff_t>(i));
        }
      while (!transfers.empty()) {  // each receiver holds its load when its message arrives
        const auto i = static_cast<std::size_t>(s4u::Comm::wait_any(transfers));
        Node& to = w.nodes[arrivals[i].to];
        to.state.add_own(arrivals[i].load);
        load_changed(w, to, s4u::Engine::get_clock());
        transfers.erase(transfers.begin() + static_cast<std::ptrdiff_t>(i));
        arrivals.erase(arrivals.begin() + static_cast<std::ptrdiff_t>(i));
      }
      event.transfer_seconds = s4u::Engine::get_clock() - start;
      if (plan.busiest > 0) seconds_per_work = event.transfer_seconds / plan.busiest;
      event.load = plan.moved;
      event.transfers = plan.transfers.size();
      w.moved += plan.moved;
      // Load is never lost: every unit held before the step is held by one node after it.
      diffusion::check_conservation(before, held_total(w), w.config.strategy.integer);
      w.global_steps.push_back(event);
    } catch (const Error& e) {
      if (w.error.empty()) w.error = fmt::format("global step at {} s: {}", event.date, e.what());
      w.finish(s4u::Engine::get_clock());
      resume(w);
      return;
    }
    resume(w);
  }
}

}  // namespace hetlb::sim::detail
