// The three activities of each node (Couturier & Giersch, Section "Simulation model", Algorithms
// 1-3) around the node's shared state (diffusion::NodeState), plus the centralised end of the run:
// time limit, convergence, draining in-flight data.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "diffusion_world.hpp"
#include "hetlb/diffusion/time_imbalance.hpp"
#include "hetlb/error.hpp"
#include "unlike_speeds.hpp"

namespace hetlb::sim::detail {

namespace s4u = simgrid::s4u;

namespace {
double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Non-blocking send. SimGrid 3.32 keeps each actor's activities in a linked list with linear
// removal, and a comm leaves its sender's list only when a wait on it completes (a successful test
// marks it finished without removing it): detached or merely tested comms make the list, and a
// 1000-node run, grow without bound. Each sender keeps its comms and, every 8 sends, collects the
// finished ones with zero-timeout waits.
void send(World& w, std::vector<s4u::CommPtr>& pending, s4u::Mailbox* box, const Message& m, double bytes) {
  pending.push_back(box->put_async(w.make(m), static_cast<uint64_t>(std::max(1.0, bytes))));
  if (pending.size() < 8) return;
  for (ssize_t k; !pending.empty() && (k = s4u::Comm::wait_any_for(pending, 0)) >= 0;)
    pending.erase(pending.begin() + k);
}

// One line at most every 5 s of wall time: nodes in the band, the shortest running streak, data
// messages in flight (each receiving activity takes one at a time, so they queue where communication
// dominates, and that is what makes such runs slow).
void report_progress(World& w) {
  if (!w.config.progress) return;
  const double now = wall_now();
  if (now - w.last_progress < 5.0) return;
  w.last_progress = now;
  long shortest = -1;
  for (const Node& n : w.nodes) {
    const long s = w.tracker.streak(n.id);
    if (s > 0 && (shortest < 0 || s < shortest)) shortest = s;
  }
  fmt::print(stderr, "hetlb: simulated {:.1f} s of {:.1f} s, {}/{} nodes in the 1% band (shortest streak {}/{}), {} converged, {} data messages in flight, {:.0f} s wall\n",
             s4u::Engine::get_clock(), w.time_limit, w.tracker.in_band_count(), w.nodes.size(), std::max(0L, shortest),
             w.tracker.iterations(), w.tracker.converged_count(), w.in_flight, now - w.wall_start);
}

// SIGINT or SIGTERM at the command line (DiffusionConfig::stop): the run ends now, as at its time limit.
void check_stop(World& w) {
  if (w.finished || !w.config.stop || !w.config.stop()) return;
  w.interrupted = true;
  w.finish(s4u::Engine::get_clock());
}
}  // namespace

namespace {
// Something the load-balancing activity has not seen arrived: its next iteration may act.
void wake_balancer(Node& n) {
  n.news = true;
  if (n.parked) {
    n.parked = false;
    n.balancer->resume();
  }
}

// Number of dates first, first + period, ... strictly before `end` (or up to it, inclusive).
std::uint64_t periods_before(double first, double period, double end, bool inclusive) {
  if (first > end || (!inclusive && first == end)) return 0;
  const double q = (end - first) / period;
  auto k = static_cast<std::uint64_t>(std::floor(q * (1 + 1e-12)));
  if (!inclusive && first + static_cast<double>(k) * period >= end) return k;
  return k + 1;
}
}  // namespace

Message* World::make(const Message& m) {
  Message* p;
  if (free_list.empty()) {
    pool.push_back(m);
    p = &pool.back();
  } else {
    p = free_list.back();
    free_list.pop_back();
    *p = m;
  }
  return p;
}

void World::finish(double date) {
  if (finished) return;
  finished = true;
  finish_date = date;
  if (resumed) resumed->notify_all();  // balancing paused by a global step
  if (quiet) quiet->notify_all();      // a global step waiting for what is in flight
  for (Node& n : nodes) {
    if (n.waiting) n.data_cv->notify_all();
    if (n.parked) {
      n.parked = false;
      n.balancer->resume();
    }
  }
  s4u::Actor::create("drain", nodes.front().host, [this] { drain_activity(*this); });
}

// Algorithm 1: wait for a message on either channel. One blocking receive per channel (two actors)
// is the same as waiting on both channels, and cheaper in SimGrid than a wait on any of two comms.
// Control messages go to the FIFO the load-balancing activity reads; data is handed to the node's
// state at once (received, not yet taken in by the computation).
void receiving_activity(World& w, Node& n, Channel channel) {
  if (channel == Channel::control) {
    for (;;) {
      Message* ctrl = n.ctrl_box->get<Message>();
      n.ctrl_fifo.push_back(*ctrl);
      w.release(ctrl);
      --w.ctrl_in_flight;
      wake_balancer(n);
      if (w.paused && w.in_flight == 0 && w.ctrl_in_flight == 0) w.quiet->notify_all();
    }
  }
  for (;;) {
    Message* data = n.data_box->get<Message>();
    n.state.data_received(data->slot, data->amount);
    --w.nodes[n.neighbours[data->slot]].data_in_flight_to[n.slot_at[data->slot]];
    w.release(data);
    --w.in_flight;
    wake_balancer(n);
    if (n.waiting) n.data_cv->notify_all();
    if (w.finished && w.in_flight == 0) w.drained->notify_all();
    if (w.paused && w.in_flight == 0 && w.ctrl_in_flight == 0) w.quiet->notify_all();
  }
}

// Algorithm 2: take in received load, send what is owed, compute for a time proportional to the
// load, never loop faster than the minimum computing iteration. Iterations that end after the end of
// the run are not counted.
void computing_activity(World& w, Node& n) {
  while (!w.finished) {
    // Idle: wait for the receiving activity to bring data (or for the end). The mutex is taken only
    // here: SimGrid 3.32 leaves each immediate acquisition in the actor's activity list.
    if (n.state.pending() <= 0 && n.state.real() <= 0) {
      std::unique_lock lock(*n.mutex);
      n.waiting = true;
      n.wait_start = s4u::Engine::get_clock();
      // A global step's transfer adds to the real load directly (global_steps.cpp).
      while (n.state.pending() <= 0 && n.state.real() <= 0 && !w.finished) n.data_cv->wait(lock);
      n.waiting = false;
      n.idle_time += std::min(s4u::Engine::get_clock(), w.finished ? w.finish_date : 1e300) - n.wait_start;
    }
    if (w.finished) break;
    const double start = s4u::Engine::get_clock();
    n.iteration_start = start;
    n.iteration_recorded = false;
    n.state.take_in();
    // Releasing what is owed moves it from the real load and the owed amount at once, which can
    // change the own view's last bit: a parked balancer would then no longer repeat its last
    // iteration identically (the reference model's next report differs), so it is woken.
    const double view_before = n.state.own_view();
    for (std::size_t p = 0; p < n.neighbours.size() && !w.paused; ++p) {  // a global step: held back
      if (w.config.coalesce_data && n.data_in_flight_to[p] > 0) continue;  // owed until that one arrives
      const double a = n.state.release(static_cast<int>(p));
      if (!(a > 0)) continue;
      w.moved += a;
      ++w.data_messages;
      w.max_in_flight = std::max(w.max_in_flight, ++w.in_flight);
      ++n.data_in_flight_to[p];
      Message m;
      m.slot = n.slot_at[p];
      m.amount = a;
      send(w, n.data_sends, w.nodes[n.neighbours[p]].data_box, m, a * kUnitBytes);
    }
    // The node's held load changes only here until the end (received load taken in, owed load sent).
    if (w.curve) w.curve->set_load(n.id, n.state.real(), start);
    if (n.state.own_view() != view_before) wake_balancer(n);
    if (n.state.real() > 0) s4u::this_actor::execute(n.state.real() * w.flops_per_unit);
    if (w.finished) break;
    n.last_compute_seconds = s4u::Engine::get_clock() - start;
    ++n.comp_iterations;
    w.computed += n.state.real();
    n.iteration_recorded = true;
    w.tracker.record(n.id, n.state.real(), s4u::Engine::get_clock());
    if (w.tracker.all_converged()) w.finish(s4u::Engine::get_clock());
    if (n.id == 0) report_progress(w);
    check_stop(w);
    const double left = start + w.min_comp - s4u::Engine::get_clock();
    if (left > 0 && !w.finished) s4u::this_actor::sleep_for(left);
  }
  s4u::Comm::wait_all(n.data_sends);  // a sender leaving would cancel its comms
}

// Algorithm 3: read control messages, run the strategy on the node's view, tell every neighbour
// our load (with virtual load, also the transfer it will receive), never loop faster than the
// minimum iteration.
void balancing_activity(World& w, Node& n) {
  const std::size_t deg = n.neighbours.size();
  const auto& observer = w.config.on_decision;
  if (n.lb_phase > 0) {  // staggered: this node's first balancing iteration
    n.next_balancing = n.lb_phase;
    s4u::this_actor::sleep_for(n.lb_phase);
  }
  double next = s4u::Engine::get_clock();
  while (!w.finished) {
    if (w.paused) {  // a global step: nothing decided or reported until it ends, then at once
      wait_while_paused(w);
      continue;
    }
    const double start = s4u::Engine::get_clock();
    n.news = false;
    for (; !n.ctrl_fifo.empty(); n.ctrl_fifo.pop_front())
      n.state.control_received(n.ctrl_fifo.front().slot, n.ctrl_fifo.front().report);
    if (w.config.balance == diffusion::Balance::time) n.state.set_speed(current_speed(n.host) / kGigaflops);
    DecisionEvent event;
    if (observer) event.own_before = n.state.own_view();
    std::vector<double> t;
    try {
      t = n.state.decide(w.config.strategy, {n.id, start});
    } catch (const Error& e) {
      // A faulty plug-in decision ends the run as an error (never clamped): simulate_diffusion throws it.
      if (w.error.empty()) w.error = e.what();
      w.finish(start);
      return;
    }
    bool quiet = std::none_of(t.begin(), t.end(), [](double x) { return x > 0; });
    if (observer) {
      event.node = n.id;
      event.date = start;
      event.estimates_before = n.state.estimates();
      event.transfers = t;
      event.own_after = n.state.own_view();
      for (std::size_t p = 0; p < deg; ++p) event.estimates_after.push_back(n.state.estimate(static_cast<int>(p)));
      observer(event);
    }
    for (std::size_t p = 0; p < deg; ++p) {
      const diffusion::Report r = n.state.report(static_cast<int>(p));
      // A message equal to the last one sent to p (same load and acknowledgement, nothing announced)
      // would change nothing there: it is counted as skipped instead of simulated.
      const diffusion::Report& last = n.last_sent[p];
      if (n.sent_any[p] && r.announced == 0 && r.load == last.load && r.accounted == last.accounted &&
          r.speed == last.speed) {
        ++w.ctrl_skipped;
        continue;
      }
      quiet = false;
      n.last_sent[p] = r;
      n.sent_any[p] = true;
      ++w.ctrl_messages;
      ++w.ctrl_in_flight;
      Message m;
      m.slot = n.slot_at[p];
      m.report = r;
      send(w, n.ctrl_sends, w.nodes[n.neighbours[p]].ctrl_box, m, kControlBytes);
    }
    ++n.lb_iterations;
    check_stop(w);
    next = start + w.min_lb;
    n.next_balancing = next;
    // An iteration that decided nothing and sent nothing, with nothing arrived since it began, would
    // be repeated identically: park until a message arrives, count the iterations skipped meanwhile.
    if (quiet && !n.news && w.min_lb > 0 && !w.finished) {
      n.parked = true;
      s4u::this_actor::suspend();
      const bool ended = w.finished;
      const double now = ended ? w.finish_date : s4u::Engine::get_clock();
      if (ended && w.fast_forwarded) break;  // the shortcut counted them
      const std::uint64_t skipped = periods_before(next, w.min_lb, now, ended);
      n.lb_iterations += skipped;
      w.ctrl_skipped += skipped * deg;
      w.computed_iterations += skipped;
      next += static_cast<double>(skipped) * w.min_lb;
      n.next_balancing = next;
      if (ended) break;
    }
    const double left = next - s4u::Engine::get_clock();
    if (left > 0) s4u::this_actor::sleep_for(left);
  }
  s4u::Comm::wait_all(n.ctrl_sends);
}

void timer_activity(World& w) {
  s4u::this_actor::sleep_for(w.time_limit);
  w.finish(s4u::Engine::get_clock());
}

// After the end: wait until every data message in flight has arrived, then hand it to its node.
void drain_activity(World& w) {
  {
    std::unique_lock lock(*w.drain_mutex);
    while (w.in_flight > 0) w.drained->wait(lock);
  }
  for (Node& n : w.nodes) n.state.take_in();
}

LoadSample World::sample(double date) const {
  LoadSample s{date, {}};
  std::vector<double> speeds;
  for (const Node& n : nodes) {
    s.loads.push_back(n.state.real());
    speeds.push_back(current_speed(n.host));
  }
  s.time_imbalance = diffusion::time_imbalance(s.loads, speeds);
  return s;
}

void trace_activity(World& w) {
  while (!w.fast_forwarded) {  // a computed end writes its own samples (steady_state.cpp)
    w.trace.push_back(w.sample(s4u::Engine::get_clock()));
    w.next_trace = s4u::Engine::get_clock() + w.config.trace_interval;
    s4u::this_actor::sleep_for(w.config.trace_interval);
  }
}

}  // namespace hetlb::sim::detail
