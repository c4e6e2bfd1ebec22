// When to redistribute an iterative ring application (iterative.hpp), and the run of a policy.
#pragma once
#include <cstddef>
#include <functional>
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
  // What the run knows of the application (model policy): its links, speeds and compute cost, the
  // balanced targets, and the drift observed after iteration t-1 (null before iteration 0).
  const IterativeApp* app = nullptr;
  const std::vector<Count>* targets = nullptr;
  const Delta* last_delta = nullptr;
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
// hetlb's cost model (docs/ring.md, "The cost model's prediction"). Before iteration t, with the excess
// e = iteration time - ideal time and h = N - t iterations left, keeping the loads is predicted to cost
// l h, l the level the excess keeps: the mean excess of the iterations since it rose above the balanced
// ring's after the last redistribution (or since the start), at most e; redistributing, the plan's time
// C plus R(h), the plan costs and excess of the h iterations after a redistribution. Redistribute when
// l h - R(h) > C > 0. R is learned online from a
// shadow ring: the balanced targets, moved by every drift the run observes and redistributed by the
// renewal rule k e_s - F_s > C_s (k iterations since its last redistribution, F_s their summed excess,
// e_s its current excess, C_s its plan's time: the optimal replacement period's condition, "redistribute
// when the current excess exceeds the average cost per iteration"). With rho = (plan costs + excess) per
// iteration of the shadow so far, its current period closed now at its last known plan cost, lambda and
// c the mean length and closing plan of its completed periods, s the iterations since the last drift
// (the shadow's periods start right after one, so its estimates are read at that phase):
//   R(h) = min(G(s + h) - G(s), P(s + h) - P(s)) once the shadow has completed a period, with
//          G(y) = rho y - c (y / lambda - ceil(y / lambda) + 1) (only the plans inside the horizon) and
//          P(x) = the excess over the first x iterations of its last completed period (length L,
//          closed by a plan of time C_L; beyond L: P(L) + C_L + G(x - L));
//   R(h) = P(s + h) - P(s) before, P(x) the excess over the first x iterations of the shadow's current
//          period, extended at max(e_s, e) beyond it;
//   R(h) = e max(0, h - (t + 1)) while no drift has been observed (the ring is expected to stay as it is
//          for as long again: redistribute when min(t + 1, h) e > C, the rent-or-buy rule).
// Both rates (rho and the one below) leave out the iterations since their last plan or drift while
// they are fewer than a usual gap (the next plan is due and not yet known).
// Second estimate, once a drift has been seen on a unidirectional ring with targets >= 1: the
// every-iteration counterfactual, the balanced ring rebalanced after every drift (DriftPlanCost), at
// rho_e per iteration. When rho_e < rho, also redistribute when
//   (max(l, min(rho, nu)) - rho_e) min(h, 2 (t + 1)) > C,
// nu the mean excess per iteration of the ring never redistributed (the initial loads moved by every
// drift observed).
// C is evaluated only when the test holds for the last C evaluated (0 after a redistribution).
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
  std::size_t iterations_done = 0;            // the iterations run: all of them unless RunOptions::stop ended the run
};

struct RunOptions {
  bool record_times = false;
  bool record_loads = false;
  // RunResult::redistributed_at (8 bytes per redistribution: a billion iterations redistributed at each
  // keep 8 GB); off, the run keeps nothing per iteration, only its sums.
  bool record_redistributions = true;
  // Asked every kStopCheckIterations iterations, between two of them, when set: true ends the run there
  // (SIGINT or SIGTERM at the command line, hetlb/interrupt.hpp); the result then sums the iterations
  // done, RunResult::iterations_done of them.
  std::function<bool()> stop = {};
  // Called at every iteration t once the policy's decision is applied, before the drift: whether a
  // redistribution precedes the iteration and the loads it computes on. A program that runs the
  // iterations for real beside the model (hetlb-ring-iterations) follows the model there, with nothing
  // kept per iteration. An exception it throws ends the run.
  std::function<void(std::size_t t, bool redistributed, const std::vector<Count>& loads)> each_iteration = {};
};
inline constexpr std::size_t kStopCheckIterations = 1024;

// Long runs report their progress (hetlb/progress.hpp) when a sink is set.
RunResult run_iterations(const IterativeApp& app, const Drift& drift, Policy& policy, std::size_t iterations,
                         const RunOptions& options = {});

}  // namespace hetlb::ring
