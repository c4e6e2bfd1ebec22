// Policies deciding when to redistribute an iterative ring application, and the run of one
// (redistribution_policy.hpp). The question is the ring paper's (Section 8 and conclusion).
#include "hetlb/ring/redistribution_policy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "hetlb/error.hpp"
#include "hetlb/progress.hpp"
#include "hetlb/ring/drift_plan_cost.hpp"

namespace hetlb::ring {

namespace {

class Never final : public Policy {
 public:
  bool redistribute(const PolicyView&) override { return false; }
  std::string name() const override { return "never"; }
};

class Every final : public Policy {
 public:
  explicit Every(std::size_t k) : k_(k) {}
  bool redistribute(const PolicyView& v) override { return v.t % k_ == 0; }
  std::string name() const override { return "every:" + std::to_string(k_); }

 private:
  std::size_t k_;
};

class Threshold final : public Policy {
 public:
  explicit Threshold(double x) : x_(x) {}
  bool redistribute(const PolicyView& v) override { return v.mean_time > 0 && v.iteration_time > x_ * v.mean_time; }
  std::string name() const override { return "threshold"; }

 private:
  double x_;
};

// A ring that starts balanced, follows the drift the run observes and is redistributed by the renewal
// rule (the optimal replacement period: replace when the current loss rate exceeds the average cost per
// unit of time): the estimate of what the coming iterations cost after a redistribution (model policy).
class Shadow {
 public:
  void start(const PolicyView& v) {
    *this = Shadow{};
    const IterativeApp& app = *v.app;
    links_ = &app.ring;
    targets_ = v.targets;
    w_ = app.compute_cost;
    ideal_ = v.ideal_time;
    inv_.resize(app.speeds.size());
    for (std::size_t i = 0; i < inv_.size(); ++i) inv_[i] = 1 / app.speeds[i];
    reset();
  }

  // Before iteration t: the drift after t-1, the renewal rule, then iteration t's excess.
  void step(const PolicyView& v) {
    if (v.last_delta != nullptr && !v.last_delta->empty()) follow(*v.last_delta);
    double e = excess();
    const double k = static_cast<double>(k_);
    const auto due = [&](double c) { return k_ > 0 && k * e - f_ > c + 1e-12 * (std::abs(f_) + c + 1); };
    if (due(known_cost_)) {
      known_cost_ = redistribution_cost(*links_, loads_, *targets_).time;
      if (due(known_cost_)) {
        spent_ += f_ + known_cost_;
        spent_iterations_ += k_;
        ++periods_, plans_ += known_cost_;
        last_.swap(cum_);
        last_cost_ = known_cost_;
        complete_ = true;
        reset();
        e = excess();
      }
    }
    e_ = e;
    f_ += e;
    ++k_;
    cum_.push_back(f_);
  }

  bool informed() const { return informed_; }
  double base() const { return base_; }

  // Plan costs + excess per iteration so far, the current period closed now at its last known cost.
  // A period under way counts only once it costs more than the completed ones (its plan is not known yet).
  double rate() const {
    const double now = (spent_ + f_ + known_cost_) / static_cast<double>(spent_iterations_ + k_);
    return complete_ ? std::max(now, spent_ / static_cast<double>(spent_iterations_)) : now;
  }

  // Predicted plan costs + excess of the h iterations after a redistribution made s iterations after
  // the last drift (or the start): the shadow's periods start right after a drift (the renewal rule
  // can fire only when the excess changes), so its estimates are read from s to s + h:
  // min(G(s + h) - G(s), P(s + h) - P(s)), or P alone before a period is complete.
  double after(double h, double e, double s) const {
    const double p = profile(s + h, e) - profile(s, e);
    return complete_ ? std::min(ahead(s + h) - ahead(s), p) : p;
  }

  // G(y): plan costs + excess of y iterations that follow a redistribution, at rho per iteration except
  // that only the plans falling inside them are counted: periods of the completed ones' mean length
  // lambda, each closed by a plan of their mean cost c, so ceil(y / lambda) - 1 plans where rho y
  // charges y / lambda (the last one would serve iterations beyond the horizon).
  double ahead(double y) const {
    if (y <= 0) return 0;
    const double periods = static_cast<double>(periods_);
    const double lambda = static_cast<double>(spent_iterations_) / periods;
    return rate() * y - plans_ / periods * (y / lambda - std::ceil(y / lambda) + 1);
  }

  // P(x): plan costs + excess over the first x iterations after a redistribution, from the last
  // completed period (beyond it: its plan, then G), or from the current one extended at max(its
  // excess, e) when none is complete.
  double profile(double x, double e) const {
    if (complete_) {
      const double len = static_cast<double>(last_.size() - 1);
      return x <= len ? last_[static_cast<std::size_t>(x)] : last_.back() + last_cost_ + ahead(x - len);
    }
    const double len = static_cast<double>(k_);
    return x <= len ? cum_[static_cast<std::size_t>(x)] : cum_.back() + std::max(e_, e) * (x - len);
  }

 private:
  void reset() {
    loads_ = *targets_;
    rescan();
    base_ = w_ * top_ - ideal_;
    k_ = 0;
    f_ = 0;
    known_cost_ = 0;
    cum_.assign(1, 0.0);
  }
  void rescan() {
    top_ = -1;
    for (std::size_t i = 0; i < loads_.size(); ++i)
      if (const double q = static_cast<double>(loads_[i]) * inv_[i]; q > top_) top_ = q, arg_ = i;
    stale_ = false;
  }
  double excess() {
    if (stale_) rescan();
    return w_ * top_ - ideal_;
  }
  void follow(const Delta& delta) {
    informed_ = true;
    apply_delta(loads_, delta);
    for (const auto& [i, d] : delta) {
      const double q = static_cast<double>(loads_[i]) * inv_[i];
      if (q > top_) top_ = q, arg_ = i;
      else if (i == arg_ && q < top_) stale_ = true;
    }
  }

  const Ring* links_ = nullptr;
  const std::vector<Count>* targets_ = nullptr;
  std::vector<double> inv_;
  double w_ = 0, ideal_ = 0;
  std::vector<Count> loads_;
  double top_ = 0;
  std::size_t arg_ = 0;
  bool stale_ = true, informed_ = false, complete_ = false;
  double base_ = 0;  // excess of the balanced targets
  std::size_t k_ = 0, spent_iterations_ = 0, periods_ = 0;
  double plans_ = 0;
  double f_ = 0, e_ = 0, known_cost_ = 0, spent_ = 0, last_cost_ = 0;
  std::vector<double> cum_, last_;  // summed excess over the first j iterations of the current / last period
};


// The balanced ring redistributed before every iteration that follows a drift ("every iteration" from
// a balanced start): each iteration costs the balanced ring's excess, plus, after a drift, the plan
// from the targets moved by it (drift_plan_cost.hpp: O(|drift| log |drift|) under Theorem 2's
// hypothesis). Not kept where that closed form does not apply (the model then uses the shadow alone).
class Eager {
 public:
  void start(const PolicyView& v) {
    *this = Eager{};
    cost_.emplace(v.app->ring, *v.targets);
  }

  // Before iteration t >= 1: the plan that would rebalance the targets moved by the drift after t-1
  // (iteration 0 follows no drift and says nothing of the drift's pace).
  void step(const PolicyView& v, double base) {
    if (!on() || v.t == 0) return;
    ++iterations_;
    spent_ += base;
    if (v.last_delta == nullptr || v.last_delta->empty()) return;
    spent_ += cost_->time(*v.last_delta);
    ++drifts_;
    at_drift_ = iterations_, spent_at_drift_ = spent_;
  }

  bool on() const { return cost_ && cost_->closed_form(); }
  // Plan costs + excess per iteration so far. The iterations since the last drift count only once
  // they outnumber the mean gap between drifts (before, the next drift's plan is due and not known).
  double rate() const {
    if (drifts_ > 0 && (iterations_ - at_drift_) * drifts_ <= at_drift_)
      return spent_at_drift_ / static_cast<double>(at_drift_);
    return iterations_ > 0 ? spent_ / static_cast<double>(iterations_) : 0;
  }

 private:
  std::optional<DriftPlanCost> cost_;
  std::size_t iterations_ = 0, drifts_ = 0, at_drift_ = 0;
  double spent_ = 0, spent_at_drift_ = 0;
};

// The ring never redistributed ("never" from the start): the initial loads moved by every drift the
// run observes; its mean excess per iteration is the level a ring left alone settles at.
class Untouched {
 public:
  void start(const PolicyView& v) {
    *this = Untouched{};
    const IterativeApp& app = *v.app;
    loads_ = app.ring.loads;
    w_ = app.compute_cost;
    ideal_ = v.ideal_time;
    inv_.resize(app.speeds.size());
    for (std::size_t i = 0; i < inv_.size(); ++i) inv_[i] = 1 / app.speeds[i];
  }
  void step(const PolicyView& v) {
    if (v.last_delta != nullptr && !v.last_delta->empty()) {
      apply_delta(loads_, *v.last_delta);
      for (const auto& [i, d] : *v.last_delta) {
        const double q = static_cast<double>(loads_[i]) * inv_[i];
        if (q > top_) top_ = q, arg_ = i;
        else if (i == arg_ && q < top_) stale_ = true;
      }
    }
    if (stale_) {
      top_ = -1;
      for (std::size_t i = 0; i < loads_.size(); ++i)
        if (const double q = static_cast<double>(loads_[i]) * inv_[i]; q > top_) top_ = q, arg_ = i;
      stale_ = false;
    }
    sum_ += w_ * top_ - ideal_;
    ++iterations_;
  }
  double level() const { return sum_ / static_cast<double>(iterations_); }

 private:
  std::vector<Count> loads_;
  std::vector<double> inv_;
  double w_ = 0, ideal_ = 0, top_ = 0, sum_ = 0;
  std::size_t arg_ = 0, iterations_ = 0;
  bool stale_ = true;
};

class Model final : public Policy {
 public:
  bool redistribute(const PolicyView& v) override {
    if (v.t == 0) {
      shadow_.start(v), eager_.start(v), untouched_.start(v);
      known_cost_ = 0, risen_ = false, level_sum_ = 0, level_n_ = 0, since_ = 0;
    }
    shadow_.step(v);
    // Iterations since the last drift (the start counts as one).
    if (v.t > 0) since_ = v.last_delta != nullptr && !v.last_delta->empty() ? 0 : since_ + 1;
    eager_.step(v, shadow_.base());
    untouched_.step(v);
    const double e = v.iteration_time - v.ideal_time;
    // The level the excess keeps: its mean since it rose above the balanced ring's (since the last
    // redistribution), at most e.
    if (!risen_ && e > shadow_.base() + 1e-12 * (std::abs(e) + 1)) risen_ = true;
    if (risen_) level_sum_ += e, ++level_n_;
    const double level = level_n_ > 0 ? std::min(e, level_sum_ / static_cast<double>(level_n_)) : e;
    if (v.any && v.t == v.last) return false;
    const double h = static_cast<double>(v.iterations - v.t);
    // No drift seen yet: the ring is expected to stay as it is for as long again (t + 1 iterations).
    double after = shadow_.informed() ? shadow_.after(h, e, static_cast<double>(since_))
                                      : e * std::max(0.0, h - static_cast<double>(v.t + 1));
    double gain = level * h - after;
    // Where rebalancing after every drift costs less per iteration than the shadow's renewal rule
    // (skipped plans pile up), the saving is also priced against that counterfactual: kept, the ring
    // costs at least its level, and a ring following the renewal rule or never redistributed costs
    // the smaller of their rates; redistributed, the every-iteration rate. Counted over at most twice
    // the iterations seen so far (the rates are learned from them): rent-or-buy against an investment
    // that early rates would misjudge.
    if (shadow_.informed() && eager_.on() && eager_.rate() < shadow_.rate()) {
      const double seen = std::min(h, 2.0 * static_cast<double>(v.t + 1));
      gain = std::max(gain, (std::max(level, std::min(shadow_.rate(), untouched_.level())) - eager_.rate()) * seen);
    }
    if (gain <= known_cost_) return false;
    known_cost_ = (*v.cost)();
    if (gain <= known_cost_ || known_cost_ <= 0) return false;
    known_cost_ = 0;
    risen_ = false, level_sum_ = 0, level_n_ = 0;
    return true;
  }
  std::string name() const override { return "model"; }

 private:
  Shadow shadow_;
  Eager eager_;
  Untouched untouched_;
  double known_cost_ = 0, level_sum_ = 0;
  std::size_t level_n_ = 0, since_ = 0;
  bool risen_ = false;
};

class Fixed final : public Policy {
 public:
  explicit Fixed(std::vector<std::size_t> at) : at_(std::move(at)) { std::sort(at_.begin(), at_.end()); }
  bool redistribute(const PolicyView& v) override { return std::binary_search(at_.begin(), at_.end(), v.t); }
  std::string name() const override { return "fixed"; }

 private:
  std::vector<std::size_t> at_;
};

}  // namespace

std::unique_ptr<Policy> never_policy() { return std::make_unique<Never>(); }
std::unique_ptr<Policy> every_policy(std::size_t k) { return std::make_unique<Every>(k); }
std::unique_ptr<Policy> threshold_policy(double x) { return std::make_unique<Threshold>(x); }
std::unique_ptr<Policy> model_policy() { return std::make_unique<Model>(); }
std::unique_ptr<Policy> fixed_policy(std::vector<std::size_t> iterations) { return std::make_unique<Fixed>(std::move(iterations)); }

std::unique_ptr<Policy> make_policy(const std::string& spec) {
  const auto number = [&](std::size_t from) {
    const std::string s = spec.substr(from);
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size() || !std::isfinite(v))
      throw Error("--policy " + printable(spec) + ": a number expected after ':'");
    return v;
  };
  if (spec == "never") return never_policy();
  if (spec == "model") return model_policy();
  if (spec.rfind("every:", 0) == 0) {
    const double k = number(6);
    if (k < 1 || k != std::floor(k) || k > 1e15)
      throw Error("--policy " + printable(spec) + ": K must be an integer >= 1 (redistribute every K iterations)");
    return every_policy(static_cast<std::size_t>(k));
  }
  if (spec.rfind("threshold:", 0) == 0) {
    const double x = number(10);
    if (x < 1) throw Error("--policy " + printable(spec) + ": the threshold must be >= 1 (max / mean iteration time)");
    return threshold_policy(x);
  }
  throw Error("--policy " + printable(spec) + ": expected never, every:K, threshold:X, model or optimal");
}

RunResult run_iterations(const IterativeApp& app, const Drift& drift, Policy& policy, std::size_t iterations,
                         const RunOptions& options) {
  validate(app);
  const std::size_t n = app.ring.size();
  const double w = app.compute_cost;
  std::vector<double> inv(n);
  for (std::size_t i = 0; i < n; ++i) inv[i] = 1 / app.speeds[i];
  std::vector<Count> loads = app.ring.loads;
  const Count total = std::accumulate(loads.begin(), loads.end(), Count{0});
  const std::vector<Count> targets = balanced_targets(total, app.speeds);
  const double ideal = w * static_cast<double>(total) / std::accumulate(app.speeds.begin(), app.speeds.end(), 0.0);

  // The largest L_i / s_i, kept up to date through sparse changes (rescanned when the maximum drops).
  double top = 0, sum = 0;
  std::size_t arg = 0;
  bool stale = true;
  const auto rescan = [&] {
    top = -1;
    sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double q = static_cast<double>(loads[i]) * inv[i];
      sum += q;
      if (q > top) top = q, arg = i;
    }
    stale = false;
  };

  RunResult r;
  PolicyView v;
  v.iterations = iterations;
  v.ideal_time = ideal;
  std::size_t cost_at = static_cast<std::size_t>(-1);
  RedistributionCost cost;
  const std::function<double()> ask = [&] {
    if (cost_at != v.t) cost = redistribution_cost(app.ring, loads, targets), cost_at = v.t;
    return cost.time;
  };
  v.cost = &ask;
  v.app = &app;
  v.targets = &targets;
  Delta delta;
  std::vector<Count> before;
  std::size_t t = 0;
  for (; t < iterations; ++t) {
    if (t % kStopCheckIterations == 0 && t > 0 && options.stop && options.stop()) break;
    if ((t & 0xFFFF) == 0 && t > 0 && progress_wanted())
      report_progress([&] {
        return "ring iterations: " + std::to_string(t) + " of " + std::to_string(iterations) + " (" +
               std::to_string(static_cast<int>(100.0 * static_cast<double>(t) / static_cast<double>(iterations))) + "%)";
      });
    if (stale) rescan();
    v.t = t;
    v.last_delta = t > 0 ? &delta : nullptr;
    v.iteration_time = w * top;
    v.mean_time = w * sum / static_cast<double>(n);
    const bool redistributed = policy.redistribute(v);
    if (redistributed) {
      ask();
      r.redistribution_time += cost.time;
      r.data_moved += cost.moved;
      ++r.redistributions;
      if (options.record_redistributions) r.redistributed_at.push_back(t);
      loads = targets;
      rescan();
      v.last = t;
      v.any = true;
      v.excess_since_last = 0;
    }
    const double it = w * top;
    if (t == v.last) v.excess_at_last = it - ideal;
    v.excess_since_last += it - ideal;
    v.largest_excess = std::max(v.largest_excess, it - ideal);
    r.compute_time += it;
    r.imbalance_time += it - ideal;
    if (options.record_times) r.iteration_times.push_back(it);
    if (options.record_loads) r.loads.push_back(loads);
    if (options.each_iteration) options.each_iteration(t, redistributed, loads);
    drift.delta(t, delta);
    v.last_rise = 0;
    for (const auto& [i, d] : delta)
      if (d > 0) v.last_rise = std::max(v.last_rise, w * static_cast<double>(d) * inv[i]);
    if (delta.empty()) continue;
    if (delta.size() * 4 > n) {
      apply_delta(loads, delta);
      stale = true;
      continue;
    }
    before.resize(delta.size());
    for (std::size_t k = 0; k < delta.size(); ++k) before[k] = loads[delta[k].first];
    apply_delta(loads, delta);
    for (std::size_t k = 0; k < delta.size(); ++k) {
      const std::size_t i = delta[k].first;
      const double q = static_cast<double>(loads[i]) * inv[i];
      sum += static_cast<double>(loads[i] - before[k]) * inv[i];
      if (q > top) top = q, arg = i;
      else if (i == arg && q < top) stale = true;
    }
  }
  r.iterations_done = t;
  r.total_time = r.compute_time + r.redistribution_time;
  return r;
}

}  // namespace hetlb::ring
