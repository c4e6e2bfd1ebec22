// Policies deciding when to redistribute an iterative ring application, and the run of one
// (redistribution_policy.hpp). The question is the ring paper's (Section 8 and conclusion).
#include "hetlb/ring/redistribution_policy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hetlb/error.hpp"

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

// sum_{k=0}^{h-1} min(a + g k, m)
double capped_sum(double a, double g, double m, double h) {
  if (h <= 0) return 0;
  if (a >= m) return m * h;
  if (g <= 0) return a * h;
  const double below = std::min(h, std::ceil((m - a) / g));
  return below * a + g * below * (below - 1) / 2 + (h - below) * m;
}

class Model final : public Policy {
 public:
  bool redistribute(const PolicyView& v) override {
    const double e = v.iteration_time - v.ideal_time;
    if (v.t > 0) growth_ += v.last_rise, ++observed_;  // learn the drift
    if (observed_ == 0) return false;
    const double base = v.any ? std::max(0.0, v.excess_at_last) : 0.0;
    if (e <= base || (v.any && v.t == v.last)) return false;
    const double g = observed_ > 0 ? std::max(0.0, growth_ / static_cast<double>(observed_)) : 0.0;
    const double m = std::max(v.largest_excess, e);
    const double h = static_cast<double>(v.iterations - v.t);
    const double saving = capped_sum(e, g, m, h) - capped_sum(base, g, m, h);
    const auto worth = [&](double c) { return saving > c && e * e >= 2 * g * c; };
    if (!worth(known_cost_)) return false;
    known_cost_ = (*v.cost)();
    if (!worth(known_cost_)) return false;
    known_cost_ = 0;
    return true;
  }
  std::string name() const override { return "model"; }

 private:
  double known_cost_ = 0, growth_ = 0;
  std::size_t observed_ = 0;
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
  Delta delta;
  std::vector<Count> before;
  for (std::size_t t = 0; t < iterations; ++t) {
    if (stale) rescan();
    v.t = t;
    v.iteration_time = w * top;
    v.mean_time = w * sum / static_cast<double>(n);
    if (policy.redistribute(v)) {
      ask();
      r.redistribution_time += cost.time;
      r.data_moved += cost.moved;
      ++r.redistributions;
      r.redistributed_at.push_back(t);
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
  r.total_time = r.compute_time + r.redistribution_time;
  return r;
}

}  // namespace hetlb::ring
