// When to redistribute an iterative ring application (iterative.hpp), and the run of a policy.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/iterative.hpp"

namespace hetlb::ring {

// What a policy sees before iteration t (it may ask for the plan's cost, computed on demand).
struct PolicyView {
  std::size_t t = 0, iterations = 0;
  std::size_t last = 0;            // iteration of the last redistribution (0 if none yet)
  bool any = false;                // a redistribution happened
  double iteration_time = 0;       // max_i L_i w / s_i with the current loads
  double mean_time = 0;            // mean_i L_i w / s_i
  double ideal_time = 0;           // w total / sum s
  double excess_since_last = 0;    // sum of (iteration time - ideal) over iterations last..t-1
  double excess_at_last = 0;       // excess of iteration `last` (just after it was balanced, or at start)
  double largest_excess = 0;       // largest excess of an iteration so far
  double last_rise = 0;            // w max_i (rise of L_i by the last drift) / s_i
  const std::function<double()>* cost = nullptr;  // the plan's time from the current loads
};

class Policy {
 public:
  virtual ~Policy() = default;
  virtual bool redistribute(const PolicyView& v) = 0;
  virtual std::string name() const = 0;
};

std::unique_ptr<Policy> never_policy();
std::unique_ptr<Policy> every_policy(std::size_t k);  // before iterations 0, K, 2K, ...
std::unique_ptr<Policy> threshold_policy(double x);   // when max / mean iteration time > x
// hetlb's cost model. The drift is learned as g, the mean over the drifts observed so far of
// w max_i (rise of L_i) / s_i: how fast a balanced ring's iteration time grows. With the largest
// excess seen m (excess e = iteration time - ideal), the coming h = N - t iterations are predicted to
// cost min(e_t + g k, max(m, e_t)) each without a redistribution (k = 0..h-1), min(e_0 + g k, m) after
// one (e_0: excess of the last balanced iteration). Redistribute when (1) the predicted saving over
// the h iterations exceeds the plan's cost C and (2) e_t^2 >= 2 g C: the excess has reached that of the
// optimal period sqrt(2 C / g) of a drift of constant growth g. Nothing before one drift is observed.
// C is evaluated only when both conditions hold for the last C evaluated (0 after a redistribution).
std::unique_ptr<Policy> model_policy();
// Redistributes exactly before the given iterations (the offline optimum's schedule, tests).
std::unique_ptr<Policy> fixed_policy(std::vector<std::size_t> iterations);

// Parses never | every:K | threshold:X | model (`optimal` is handled by offline_optimum). Throws
// hetlb::Error on K < 1, X < 1, or an unknown name.
std::unique_ptr<Policy> make_policy(const std::string& spec);

struct RunResult {
  double total_time = 0;            // compute + redistributions
  double compute_time = 0;          // sum of iteration times
  double imbalance_time = 0;        // sum of (iteration time - ideal time)
  double redistribution_time = 0;   // sum of plan times
  std::size_t redistributions = 0;
  Count data_moved = 0;             // items x links crossed
  std::vector<std::size_t> redistributed_at;  // iterations preceded by a redistribution
  std::vector<double> iteration_times;        // only when asked
  std::vector<std::vector<Count>> loads;      // loads of every iteration, only when asked (tests)
};

struct RunOptions {
  bool record_times = false;
  bool record_loads = false;
};

RunResult run_iterations(const IterativeApp& app, const Drift& drift, Policy& policy, std::size_t iterations,
                         const RunOptions& options = {});

}  // namespace hetlb::ring
