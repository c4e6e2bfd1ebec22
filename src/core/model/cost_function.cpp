#include "hetlb/model/cost_function.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb {

CostFunction CostFunction::linear(double per_item) {
  CostFunction f;
  f.kind_ = Kind::Linear;
  f.per_item_ = per_item;
  return f;
}

CostFunction CostFunction::affine(double latency, double per_item) {
  CostFunction f;
  f.kind_ = Kind::Affine;
  f.latency_ = latency;
  f.per_item_ = per_item;
  return f;
}

CostFunction CostFunction::table(std::vector<std::pair<double, double>> points) {
  if (points.empty()) throw Error("table: expected at least one [x, time] point");
  double prev = 0.0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    auto [x, t] = points[k];
    if (!std::isfinite(x) || !std::isfinite(t)) throw Error(fmt::format("table[{}]: expected finite numbers", k));
    if (x <= prev)
      throw Error(fmt::format("table[{}]: x = {} must be greater than {} (x strictly increasing, > 0)", k, x, prev));
    if (t < 0) throw Error(fmt::format("table[{}]: time = {} must be >= 0", k, t));
    prev = x;
  }
  CostFunction f;
  f.kind_ = Kind::Table;
  f.points_ = std::move(points);
  return f;
}

double CostFunction::eval(double x) const {
  if (x <= 0) return 0.0;
  switch (kind_) {
    case Kind::Linear:
      return per_item_ * x;
    case Kind::Affine:
      return latency_ + per_item_ * x;
    case Kind::Table: {
      const auto& p = points_;
      // first point with p.x >= x
      auto it = std::lower_bound(p.begin(), p.end(), x, [](const auto& pt, double v) { return pt.first < v; });
      double x0, t0, x1, t1;
      if (it == p.end()) {  // extrapolate with the last slope
        x1 = p.back().first;
        t1 = p.back().second;
        if (p.size() >= 2) {
          x0 = p[p.size() - 2].first;
          t0 = p[p.size() - 2].second;
        } else {
          x0 = 0.0;
          t0 = 0.0;
        }
        // A decreasing last step would reach negative times: a time never goes below zero.
        return std::max(0.0, t1 + (t1 - t0) / (x1 - x0) * (x - x1));
      }
      x1 = it->first;
      t1 = it->second;
      if (it == p.begin()) {
        x0 = 0.0;
        t0 = 0.0;
      } else {
        x0 = std::prev(it)->first;
        t0 = std::prev(it)->second;
      }
      if (x == x1) return t1;
      return t0 + (t1 - t0) * (x - x0) / (x1 - x0);
    }
  }
  return 0.0;
}

bool CostFunction::is_zero() const {
  if (kind_ != Kind::Table) return latency_ == 0.0 && per_item_ == 0.0;
  return std::all_of(points_.begin(), points_.end(), [](const auto& p) { return p.second == 0.0; });
}

bool CostFunction::is_non_decreasing() const {
  if (kind_ != Kind::Table) return latency_ >= 0.0 && per_item_ >= 0.0;
  double prev = 0.0;
  for (const auto& [x, t] : points_) {
    if (t < prev) return false;
    prev = t;
  }
  return true;
}

double CostFunction::asymptotic_slope() const {
  if (kind_ != Kind::Table) return per_item_;
  const auto& p = points_;
  if (p.size() == 1) return p[0].second / p[0].first;
  const auto& a = p[p.size() - 2];
  const auto& b = p.back();
  return (b.second - a.second) / (b.first - a.first);
}

double CostFunction::lower_slope() const {
  if (kind_ != Kind::Table) return per_item_;  // latency >= 0 only adds
  // T is piecewise linear through the origin: T(x)/x is extremal at breakpoints or at infinity.
  double s = asymptotic_slope();
  for (const auto& [x, t] : points_) s = std::min(s, t / x);
  return std::max(0.0, s);
}

std::string CostFunction::describe() const {
  switch (kind_) {
    case Kind::Linear:
      return fmt::format("{}*x", per_item_);
    case Kind::Affine:
      return fmt::format("{} + {}*x", latency_, per_item_);
    case Kind::Table:
      return fmt::format("table of {} points", points_.size());
  }
  return {};
}

Count max_items_within(const CostFunction& f, const CostFunction& g, double start, double deadline, Count limit) {
  if (start > deadline) return -1;
  if (limit <= 0) return 0;
  auto fits = [&](Count x) { return (start + f(x)) + g(x) <= deadline; };
  const double budget = deadline - start;
  if (fits(limit)) return limit;
  Count guess = -1;
  if (f.is_affine() && g.is_affine()) {
    const double slope = f.per_item() + g.per_item();
    const double fixed = f.latency() + g.latency();
    if (slope > 0) {
      const double x = std::floor((budget - fixed) / slope);
      guess = x < 0 ? 0 : (x >= static_cast<double>(limit) ? limit : static_cast<Count>(x));
    }
  }
  if (guess >= 0) {  // correct the closed form by a few steps against the exact evaluation
    for (int step = 0; step < 4 && guess > 0 && !fits(guess); ++step) --guess;
    for (int step = 0; step < 4 && guess < limit && fits(guess + 1); ++step) ++guess;
    if ((guess == 0 || fits(guess)) && (guess == limit || !fits(guess + 1))) return guess;
  }
  // Binary search on [0, limit): fits(lo) holds (x = 0 costs 0), fits(hi) does not.
  Count lo = 0, hi = limit;
  while (hi - lo > 1) {
    Count mid = lo + (hi - lo) / 2;
    if (fits(mid)) lo = mid; else hi = mid;
  }
  return lo;
}

}  // namespace hetlb
