// The three activities of each node (Couturier & Giersch, Section "Simulation model", Algorithms
// 1-3), plus the centralised end of the run: time limit, convergence, draining in-flight data.
#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "diffusion_world.hpp"

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

void report_progress(World& w) {
  if (!w.config.progress) return;
  const double now = wall_now();
  if (now - w.last_progress < 5.0) return;
  w.last_progress = now;
  fmt::print(stderr, "hetlb: simulated {:.1f} s, {}/{} nodes converged, {:.0f} s wall\n", s4u::Engine::get_clock(),
             w.tracker.converged_count(), w.nodes.size(), now - w.wall_start);
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

void World::finish() {
  if (finished) return;
  finished = true;
  finish_date = s4u::Engine::get_clock();
  for (Node& n : nodes)
    if (n.waiting) n.data_cv->notify_all();
  s4u::Actor::create("drain", nodes.front().host, [this] { drain_activity(*this); });
}

// Algorithm 1: wait on both mailboxes, push what arrives into the matching buffer.
void receiving_activity(World& w, Node& n) {
  Message* ctrl = nullptr;
  Message* data = nullptr;
  std::vector<s4u::CommPtr> comms{n.ctrl_box->get_async<Message>(&ctrl), n.data_box->get_async<Message>(&data)};
  for (;;) {
    const ssize_t which = s4u::Comm::wait_any(comms);
    if (which == 0) {
      n.ctrl_fifo.push_back(*ctrl);
      w.release(ctrl);
      comms[0] = n.ctrl_box->get_async<Message>(&ctrl);
    } else {
      n.data_fifo.push_back(*data);
      w.release(data);
      comms[1] = n.data_box->get_async<Message>(&data);
      --w.in_flight;
      if (n.waiting) n.data_cv->notify_all();
      if (w.finished && w.in_flight == 0) w.drained->notify_all();
    }
  }
}

// Algorithm 2: take in received load, send what is owed, compute for a time proportional to the
// load, never loop faster than the minimum computing iteration.
void computing_activity(World& w, Node& n) {
  const double flops_per_unit = w.config.ratio * kUnitFlopsPerRatio;
  while (!w.finished) {
    // Idle: wait for the receiving activity to bring data (or for the end). The mutex is taken only
    // here: SimGrid 3.32 leaves each immediate acquisition in the actor's activity list.
    if (n.data_fifo.empty() && n.real <= 0 && !w.finished) {
      std::unique_lock lock(*n.mutex);
      n.waiting = true;
      n.wait_start = s4u::Engine::get_clock();
      while (n.data_fifo.empty() && !w.finished) n.data_cv->wait(lock);
      n.waiting = false;
      n.idle_time += std::min(s4u::Engine::get_clock(), w.finished ? w.finish_date : 1e300) - n.wait_start;
    }
    if (w.finished) break;
    const double start = s4u::Engine::get_clock();
    for (; !n.data_fifo.empty(); n.data_fifo.pop_front()) n.real += n.data_fifo.front().amount;
    for (std::size_t p = 0; p < n.neighbours.size(); ++p) {
      const double a = std::min(n.owed[p], n.real);
      if (!(a > 0)) continue;
      n.real -= a;
      n.owed[p] -= a;
      w.moved += a;
      ++w.data_messages;
      ++w.in_flight;
      send(w, n.data_sends, w.nodes[n.neighbours[p]].data_box, Message{n.slot_at[p], 0, a}, a * kUnitBytes);
    }
    if (n.real > 0) s4u::this_actor::execute(n.real * flops_per_unit);
    ++n.comp_iterations;
    w.tracker.record(n.id, n.real, s4u::Engine::get_clock());
    if (w.tracker.all_converged()) w.finish();
    if (n.id == 0) report_progress(w);
    const double left = start + w.min_comp - s4u::Engine::get_clock();
    if (left > 0 && !w.finished) s4u::this_actor::sleep_for(left);
  }
  s4u::Comm::wait_all(n.data_sends);  // a sender leaving would cancel its comms
}

// Algorithm 3: read control messages, run the strategy, tell every neighbour our load (and, with
// virtual load, the transfer it will receive), never loop faster than the minimum iteration.
void balancing_activity(World& w, Node& n) {
  const bool virt = w.config.virtual_load;
  const std::size_t deg = n.neighbours.size();
  while (!w.finished) {
    const double start = s4u::Engine::get_clock();
    for (; !n.ctrl_fifo.empty(); n.ctrl_fifo.pop_front()) {
      const Message& m = n.ctrl_fifo.front();
      n.known[m.slot] = m.load;
      if (virt) n.virtual_load += m.amount;
    }
    double owed = 0;
    for (double o : n.owed) owed += o;
    const double own = virt ? n.virtual_load : std::max(0.0, n.real - owed);
    const std::vector<double> t = diffusion::balance(w.config.strategy, own, n.known);
    double sent = 0;
    for (std::size_t p = 0; p < deg; ++p) {
      if (!(t[p] > 0)) continue;
      n.owed[p] += t[p];
      sent += t[p];
    }
    if (virt) n.virtual_load -= sent;
    const double after = own - sent;
    for (std::size_t p = 0; p < deg; ++p) {
      const double announced = virt ? t[p] : 0.0;
      // A message equal to the last one sent to p (same load, nothing announced) would change
      // nothing there: it is counted as skipped instead of simulated.
      if (announced == 0 && after == n.last_sent[p]) {
        ++w.ctrl_skipped;
        continue;
      }
      n.last_sent[p] = after;
      ++w.ctrl_messages;
      send(w, n.ctrl_sends, w.nodes[n.neighbours[p]].ctrl_box, Message{n.slot_at[p], after, announced}, kControlBytes);
    }
    ++n.lb_iterations;
    const double left = start + w.min_lb - s4u::Engine::get_clock();
    if (left > 0) s4u::this_actor::sleep_for(left);
  }
  s4u::Comm::wait_all(n.ctrl_sends);
}

void timer_activity(World& w) {
  s4u::this_actor::sleep_for(w.time_limit);
  w.finish();
}

// After the end: wait until every data message in flight has arrived, then hand it to its node.
void drain_activity(World& w) {
  {
    std::unique_lock lock(*w.drain_mutex);
    while (w.in_flight > 0) w.drained->wait(lock);
  }
  for (Node& n : w.nodes)
    for (; !n.data_fifo.empty(); n.data_fifo.pop_front()) n.real += n.data_fifo.front().amount;
}

void trace_activity(World& w) {
  for (;;) {
    LoadSample s{s4u::Engine::get_clock(), {}};
    for (const Node& n : w.nodes) s.loads.push_back(n.real);
    w.trace.push_back(std::move(s));
    s4u::this_actor::sleep_for(w.config.trace_interval);
  }
}

}  // namespace hetlb::sim::detail
