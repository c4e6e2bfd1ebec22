// The hybrid balancer's trigger: a global step when its predicted gain over the iterations left exceeds
// its measured cost (hybrid_trigger.hpp).
#include "hetlb/balance/hybrid_trigger.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::balance {

double iterations_left(long done, long declared, long minimum) {
  if (declared > 0) return static_cast<double>(std::max(0L, declared - done));
  return static_cast<double>(std::max({done, minimum, 0L}));
}

double one_round_seconds(double gather_seconds, std::size_t ranks) {
  if (!(gather_seconds > 0)) return 0.0;
  const auto rounds = ranks > 1 ? std::bit_width(ranks - 1) : 0;  // ceil(log2 ranks)
  return gather_seconds / static_cast<double>(std::max<decltype(rounds)>(rounds, 1));
}

double seconds_per_work(double step_seconds, double collective_seconds, double busiest, double previous) {
  if (!(busiest > 0)) return previous;
  return std::max(0.0, step_seconds - std::max(0.0, collective_seconds)) / busiest;
}

bool start_step_worth(const std::vector<double>& work, const GlobalStep& plan, double margin, bool measured) {
  if (measured && std::none_of(work.begin(), work.end(), [](double w) { return !(w > 0); })) return false;
  return plan.moved > 0 && (1 + std::max(0.0, margin)) * plan.time_after < plan.time_before;
}

bool handover_worth(double iterations_left, double speed, double seconds_per_work, double margin) {
  if (!(seconds_per_work > 0) || !(speed > 0) || !std::isfinite(speed)) return true;
  return std::max(0.0, iterations_left) / speed > (1 + std::max(0.0, margin)) * seconds_per_work;
}

bool handover_beyond_margin(double relative_load, double margin) {
  return relative_load > 1 + std::max(0.0, margin);  // NaN: false
}

HybridTrigger::HybridTrigger(long min_interval, double margin) : min_interval_(min_interval), margin_(margin) {
  if (min_interval < 1)
    throw Error(fmt::format("global step: min_interval = {}; expected at least 1 iteration", min_interval));
  if (!(margin >= 0) || !std::isfinite(margin))
    throw Error(fmt::format("global step: margin = {}; expected a finite relative change >= 0", margin));
}

TriggerDecision HybridTrigger::evaluate(const GlobalStep& plan, const TriggerInputs& in) const {
  TriggerDecision d;
  const double margin = in.margin >= 0 && std::isfinite(in.margin) ? in.margin : margin_;
  const double left_fraction = plan.time_before > 0 ? (1 + margin) * plan.time_after / plan.time_before : 1.0;
  const double per_iteration = std::max(0.0, in.iteration_seconds) * std::max(0.0, 1.0 - left_fraction);
  d.gain = std::max(0.0, in.iterations_left) * per_iteration;
  d.cost = std::max(0.0, in.collective_seconds) + std::max(0.0, in.seconds_per_work) * plan.busiest;
  d.step = plan.moved > 0 && d.gain > d.cost;
  return d;
}

TriggerDecision HybridTrigger::decide(long iteration, const GlobalStep& plan, const TriggerInputs& in) {
  TriggerDecision d = evaluate(plan, in);
  d.step = d.step && due(iteration);
  if (d.step) taken(iteration, in.provisional);
  return d;
}

TriggerDecision HybridTrigger::decide_global(long iteration, const GlobalStep& plan, const TriggerInputs& in) {
  TriggerDecision d = evaluate(plan, in);
  d.step = plan.moved > 0 && plan.time_after < plan.time_before && due(iteration);
  if (d.step) taken(iteration, in.provisional);
  return d;
}

void HybridTrigger::taken(long iteration, bool provisional) {
  const bool early = last_ >= 0 && iteration - last_ < min_interval_;
  provisional_ = provisional && !early;
  last_ = iteration;
}

}  // namespace hetlb::balance
