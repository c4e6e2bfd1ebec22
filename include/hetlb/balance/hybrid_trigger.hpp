// When the hybrid balancer takes a global step (docs/runtime.md, "Global steps"): cost against benefit,
// not a fixed period. Between steps, diffusion follows small drift.
//
// Rule, from inputs every rank has the same values of:
//   gain = iterations_left x iteration_seconds x max(0, 1 - (1 + margin) x time_after / time_before)
//   cost = collective_seconds + seconds_per_work x busiest
//   step  <=>  gain > cost, and at least `min_interval` iterations since the last step.
// iteration_seconds is the measured iteration time (the slowest rank's computing seconds), and the
// plan's time_after / time_before (global_step.hpp) the fraction of it left after the step, so the
// gain is the time saved over the iterations left. The margin (the speed estimates' resolution: the
// largest of the ranks' measured dispersions, TriggerInputs::margin, or the trigger's own) discounts an
// imbalance that noise in the speeds could produce. cost is what the
// step costs: its messages' synchronisation (one round of the ranks' all-gather, one_round_seconds:
// the gather itself is paid before the decision, step or not) plus moving the busiest rank's work at
// the measured seconds per unit of work. iterations_left is the program's declared total minus the iterations done, or,
// undeclared, a running estimate: as many as done so far (a run seen at a random moment is as likely
// to be in its first half as in its second), at least `minimum` (the iterations a run still needs,
// e.g. those that declare convergence).
// A step taken on provisional speeds (some rank had no sample yet and was given the others' mean) lets
// the next one follow at the next iteration, once every rank has measured itself; that early step
// itself starts the min_interval again (at most one early step in a row).
#pragma once

#include <cstddef>
#include <vector>

#include "hetlb/balance/global_step.hpp"

namespace hetlb::balance {

// Iterations left: declared > 0: max(0, declared - done); otherwise max(done, minimum).
double iterations_left(long done, long declared, long minimum);

// The latency of one round of an all-gather of `ranks` contributions that took `gather_seconds`:
// gather_seconds / ceil(log2 ranks) (Bruck's algorithm: ceil(log2 ranks) rounds; at least one). It
// stands for a step's synchronisation: every rank holds every contribution when the gather ends, so
// the step's messages wait for one message's latency, not for the gather's rounds (at 256 ranks across
// Grid'5000 sites the gather took 1.1 s in 8 rounds and the moves after it 0.35 s). 0 for a gather
// that took no time or is not a number.
double one_round_seconds(double gather_seconds, std::size_t ranks);

// The cost of moving one unit of work, measured on a step that took `step_seconds` and moved `busiest`
// units to or from its busiest rank: the step's duration less one collective's latency, which the cost
// charges apart (collective_seconds; the step's messages wait for the slowest partner as a collective
// does, so counting it in both would charge it twice). `previous` when nothing moved.
double seconds_per_work(double step_seconds, double collective_seconds, double busiest, double previous);

// The start step (option start_step, off by default; docs/runtime.md, "Global steps"), taken before the
// first iteration, when nothing has
// been measured: `plan` is made from the ranks' `work` with the given speeds, or with equal ones when the speeds are measured
// (equal work minimises the worst case of max work_i / speed_i over every assignment of the speeds to
// the ranks: the slowest speed may fall on the largest work). Worth taking when it shortens the plan's
// iteration time by more than the margin, plan.moved > 0 and (1 + margin) x time_after < time_before,
// and, with `measured` speeds, some rank holds no work: such a rank cannot measure itself
// in the first iteration, so the step after it would be on provisional speeds and make this same move
// anyway; the start step makes it one iteration sooner. When every rank holds work, every rank
// measures itself and the step after the first iteration goes straight to the measured shares; a start
// step would be a second move, worth it only if computing a unit costs more than moving it, which
// nothing measured yet tells (it took 1.1-1.8x the time on the comparison's short and transfer rows).
// With given speeds the step after the first iteration would make the same plan: the start step moves
// it one iteration sooner. No gain or cost is predicted (nothing tells yet what computing costs: hence
// off by default); the trigger counts it as provisional.
bool start_step_worth(const std::vector<double>& work, const GlobalStep& plan, double margin, bool measured);

// A diffusion hand-over between global steps (hybrid; docs/runtime.md, "Global steps"): a unit of work
// moves only when computing it over the iterations left could cost more than moving it once,
//   iterations_left / speed > (1 + margin) x seconds_per_work,
// the gain's upper bound (the sender's iteration shortens by at most 1 / speed per unit it gives, when
// it is the slowest rank) against the cost per unit probed inside start() or measured by the last
// global step. Without a cost (seconds_per_work = 0: none known) every move is worth it. speed: the
// sender's work per second; 0 or unknown: worth it (nothing to weigh).
bool handover_worth(double iterations_left, double speed, double seconds_per_work, double margin);

// And, in a run the program ends (end_on_convergence false), only from a rank whose load exceeds its
// share by more than the margin (`relative_load`: its load over its share, 1 within whole items of it;
// +infinity with no share known): the shares come from measured speeds, and an excess within the speed
// estimates' resolution (the margin, their hysteresis) may be their noise. Diffusion would chase it,
// moving items back and forth between global steps (on the comparison's short rows the hybrid moved
// about twice the items of the balancer global and took 1.2-1.5x its time); a real excess beyond it is
// moved by diffusion, or by a global step when its gain pays, and a rank below its share does not
// lengthen the iteration; such a rank makes no diffusion decision either. A run that ends on convergence
// needs every rank in its band (tolerance, usually narrower than the margin): there diffusion moves
// within the margin too.
bool handover_beyond_margin(double relative_load, double margin);

struct TriggerInputs {
  double iteration_seconds = 0;   // the measured iteration time, s
  double iterations_left = 0;
  double collective_seconds = 0;  // the step's synchronisation: one round of the gather (one_round_seconds), s
  double seconds_per_work = 0;    // measured cost of moving one unit of work, s
  bool provisional = false;       // some rank's speed was imputed (no sample yet)
  double margin = -1;             // the speeds' resolution (relative); < 0: the trigger's own margin
};

struct TriggerDecision {
  bool step = false;
  double gain = 0;  // s, predicted over the iterations left
  double cost = 0;  // s, predicted
};

class HybridTrigger {
 public:
  // min_interval >= 1 iterations between two steps; margin >= 0 (relative): where the inputs give none.
  HybridTrigger(long min_interval, double margin);
  // At iteration `iteration` (non-decreasing from call to call), for the plan `plan`: evaluate(), and
  // a step only when due.
  TriggerDecision decide(long iteration, const GlobalStep& plan, const TriggerInputs& in);
  // The balancer global's rule at iteration `iteration`: a step whenever the plan moves work and
  // shortens the iteration (time_after < time_before), when due; gain and cost evaluated as by
  // evaluate() (for the metrics), not compared.
  TriggerDecision decide_global(long iteration, const GlobalStep& plan, const TriggerInputs& in);
  // The gain and the cost, and step = the plan moves work and gain > cost (whatever the interval).
  TriggerDecision evaluate(const GlobalStep& plan, const TriggerInputs& in) const;
  // At least min_interval iterations since the last step (or none yet), or one after a provisional one.
  bool due(long iteration) const {
    return last_ < 0 || iteration - last_ >= (provisional_ ? 1 : min_interval_);
  }
  // Records that a step was taken at `iteration`, on provisional speeds or not (decide() does it when it
  // says step).
  void taken(long iteration, bool provisional = false);
  long last_step() const { return last_; }  // the iteration of the last step, -1: none

 private:
  long min_interval_;
  double margin_;
  long last_ = -1;
  bool provisional_ = false;  // the last step was provisional and not itself early
};

}  // namespace hetlb::balance
