// The imbalance curve of a run (include/hetlb/diffusion/imbalance_curve.hpp): ordered multisets of the
// loads and of the times x_i / s_i give each maximum after a change in O(log n); the sums are updated
// by differences and recomputed from the loads at every read-out date and at the end.
#include "hetlb/diffusion/imbalance_curve.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "hetlb/diffusion/metrics.hpp"

namespace hetlb::diffusion {

std::string imbalance_at_name(const std::string& view, double date) {
  return fmt::format("{}_imbalance_at_{}", view, date);
}

std::string imbalance_integral_name(const std::string& view) { return view + "_imbalance_integral"; }

ImbalanceCurve::ImbalanceCurve(const std::vector<double>& loads, const std::vector<double>& speeds,
                               std::vector<double> dates, std::vector<SpeedChange> speed_changes, double start)
    : loads_(loads), speeds_(speeds), speed_changes_(std::move(speed_changes)), last_(start) {
  for (std::size_t i = 0; i < loads_.size(); ++i) {
    by_load_.insert(loads_[i]);
    by_time_.insert(loads_[i] / speeds_[i]);
  }
  total_load_ = total_load(loads_);
  total_speed_ = std::accumulate(speeds_.begin(), speeds_.end(), 0.0);
  values_.dates = std::move(dates);
  values_.load_at.assign(values_.dates.size(), 1);
  values_.time_at.assign(values_.dates.size(), 1);
  order_.resize(values_.dates.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::stable_sort(order_.begin(), order_.end(),
                   [&](std::size_t a, std::size_t b) { return values_.dates[a] < values_.dates[b]; });
  std::stable_sort(speed_changes_.begin(), speed_changes_.end(),
                   [](const SpeedChange& a, const SpeedChange& b) { return a.date < b.date; });
}

double ImbalanceCurve::load_imbalance() const {
  if (loads_.empty() || !(total_load_ > 0)) return 1;
  return *by_load_.rbegin() / (total_load_ / static_cast<double>(loads_.size()));
}

double ImbalanceCurve::time_imbalance() const {
  if (loads_.empty() || !(total_load_ > 0)) return 1;
  return *by_time_.rbegin() / (total_load_ / total_speed_);
}

void ImbalanceCurve::set_speed(int node, double speed) {
  const auto i = static_cast<std::size_t>(node);
  by_time_.erase(by_time_.find(loads_[i] / speeds_[i]));
  total_speed_ += speed - speeds_[i];
  speeds_[i] = speed;
  by_time_.insert(loads_[i] / speeds_[i]);
}

void ImbalanceCurve::advance(double date) {
  // Segments [last_, date) cut at the speed changes before `date`; a date read in a segment gets its value.
  for (;;) {
    const bool speed_first = next_speed_ < speed_changes_.size() && speed_changes_[next_speed_].date < date;
    const double to = speed_first ? speed_changes_[next_speed_].date : date;
    while (next_date_ < order_.size() && values_.dates[order_[next_date_]] < to) {
      total_load_ = total_load(loads_);  // no drift from the differences
      values_.load_at[order_[next_date_]] = load_imbalance();
      values_.time_at[order_[next_date_]] = time_imbalance();
      ++next_date_;
    }
    if (to > last_) {
      values_.load_integral += load_imbalance() * (to - last_);
      values_.time_integral += time_imbalance() * (to - last_);
      last_ = to;
    }
    if (!speed_first) return;
    set_speed(speed_changes_[next_speed_].node, speed_changes_[next_speed_].speed);
    ++next_speed_;
  }
}

void ImbalanceCurve::set_load(int node, double load, double date) {
  advance(date);
  const auto i = static_cast<std::size_t>(node);
  if (load == loads_[i]) return;
  by_load_.erase(by_load_.find(loads_[i]));
  by_time_.erase(by_time_.find(loads_[i] / speeds_[i]));
  total_load_ += load - loads_[i];
  loads_[i] = load;
  by_load_.insert(load);
  by_time_.insert(load / speeds_[i]);
}

ImbalanceValues ImbalanceCurve::finish(double end, const std::vector<double>& final_loads) {
  total_load_ = total_load(loads_);
  advance(end);
  // A date equal to the end reads the loads at the end; later ones, the final loads.
  while (next_date_ < order_.size() && values_.dates[order_[next_date_]] <= end) {
    values_.load_at[order_[next_date_]] = load_imbalance();
    values_.time_at[order_[next_date_]] = time_imbalance();
    ++next_date_;
  }
  for (std::size_t i = 0; i < final_loads.size() && i < loads_.size(); ++i) set_load(static_cast<int>(i), final_loads[i], end);
  total_load_ = total_load(loads_);
  for (; next_date_ < order_.size(); ++next_date_) {
    values_.load_at[order_[next_date_]] = load_imbalance();
    values_.time_at[order_[next_date_]] = time_imbalance();
  }
  return values_;
}

}  // namespace hetlb::diffusion
