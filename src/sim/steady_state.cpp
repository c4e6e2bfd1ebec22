// The end of a run, computed instead of simulated. When no message is in flight or waiting to be read,
// nothing is owed or pending and every node's strategy decides nothing on its current view, nothing
// can change any more: each node computes the same load at every iteration, so its iterations last
// max(load * flops / speed, minimum iteration), and a node without load waits for data that never
// comes. If every node is in the 1% band, the dates at which the streaks complete follow and the run
// ends at the last of them; otherwise (a stalled run: integer load on a gradient DASUD cannot break
// within the band, docs/simulation.md) some node can never converge and the run ends at the time
// limit. Counts stop at the end of the run, as in a fully simulated one (tests compare both,
// diffusion_simulation_test.cpp, computed_load_test.cpp).
#include <algorithm>
#include <cmath>

#include "diffusion_world.hpp"

namespace hetlb::sim::detail {

namespace s4u = simgrid::s4u;

namespace {
bool is_fixed_point(const World& w) {
  if (w.in_flight > 0 || w.ctrl_in_flight > 0) return false;
  for (const Node& n : w.nodes) {
    // A slowdown still to come or to end changes iteration times: only iterations begun after the last
    // one are constant.
    if (w.slowdowns_end > 0 && (s4u::Engine::get_clock() < w.slowdowns_end ||
                                (!n.waiting && n.iteration_start < w.slowdowns_end)))
      return false;
    // Computing, or waiting for data: a node without load still in its last iteration is neither yet.
    if (n.waiting != !(n.state.real() > 0)) return false;
    if (!n.ctrl_fifo.empty() || n.state.pending() > 0 || n.state.owed_total() > 0) return false;
    for (double t : n.state.plan(w.config.strategy))
      if (t > 0) return false;
    for (int p = 0; p < n.state.degree(); ++p) {
      const diffusion::Report r = n.state.report(p);
      if (!n.sent_any[p] || r.load != n.last_sent[p].load || r.accounted != n.last_sent[p].accounted) return false;
    }
  }
  return true;
}

// Number of dates first, first + period, ... that are <= end.
std::uint64_t dates_until(double first, double period, double end) {
  if (first > end) return 0;
  return static_cast<std::uint64_t>(std::floor((end - first) / period * (1 + 1e-12))) + 1;
}

void fast_forward(World& w) {
  const double now = s4u::Engine::get_clock();
  struct Cadence {
    double first, period;
  };
  std::vector<Cadence> cadence;
  double end = now;
  for (const Node& n : w.nodes) {
    if (n.waiting) {  // no load: no iteration until the end (its cadence is unused), and no convergence
      cadence.push_back({0, 0});
      end = w.time_limit;
      continue;
    }
    const double e = n.state.real() * w.flops_per_unit / n.host->get_speed();
    const double period = std::max(e, w.min_comp);
    const double first = n.iteration_recorded ? n.iteration_start + period + e : n.iteration_start + e;
    cadence.push_back({first, period});
    if (!w.tracker.in_band(n.id, n.state.real())) {  // every record from the next one is out of the band
      end = w.time_limit;
      continue;
    }
    // In the band from the next record on (a streak already running goes on, else one starts there).
    const long need = w.tracker.iterations() - w.tracker.streak(n.id);
    if (need > 0) end = std::max(end, first + static_cast<double>(need - 1) * period);
  }
  end = std::min(end, w.time_limit);
  for (Node& n : w.nodes) {
    // A waiting node: the rest of its wait, counted from its start when it wakes at `now`.
    if (n.waiting) n.idle_time += end - now;
    const std::uint64_t records = n.waiting ? 0 : dates_until(cadence[n.id].first, cadence[n.id].period, end);
    n.comp_iterations += records;
    w.computed += static_cast<double>(records) * n.state.real();
    if (records > 0 && (w.tracker.streak(n.id) == 0 || !w.tracker.in_band(n.id, n.state.real()))) {
      // The next record starts a streak, or ends the running one: recorded as such, the rest extend it.
      w.tracker.record(n.id, n.state.real(), cadence[n.id].first);
      w.tracker.extend(n.id, static_cast<long>(records) - 1);
    } else {
      w.tracker.extend(n.id, static_cast<long>(records));
    }
    const std::uint64_t balancing = dates_until(n.next_balancing, w.min_lb, end);
    n.lb_iterations += balancing;
    w.ctrl_skipped += balancing * n.neighbours.size();
    w.computed_iterations += records + balancing;
  }
  // The trace's samples up to the end, as the trace activity would have taken them (loads are constant).
  if (w.config.trace_interval > 0) {
    LoadSample sample = w.sample(now);
    for (double t = w.next_trace; t <= end * (1 + 1e-12); t += w.config.trace_interval) {
      sample.date = t;
      w.trace.push_back(sample);
    }
  }
  w.fast_forwarded = true;
  w.finish(end);
}
}  // namespace

void steady_state_activity(World& w) {
  if (!(w.min_lb > 0)) return;
  // Half a period off the load-balancing iterations when they are aligned (all at multiples of min_lb);
  // staggered ones may coincide with a check, which is harmless: at a fixed point a balancing
  // iteration changes nothing, and each node's next date (next_balancing) is counted from either side.
  s4u::this_actor::sleep_for(w.min_lb / 2);
  while (!w.finished) {
    if (is_fixed_point(w)) {
      fast_forward(w);
      return;
    }
    s4u::this_actor::sleep_for(w.min_lb);
  }
}

}  // namespace hetlb::sim::detail
