// The imbalance of a run over time, as the piecewise-constant curve of the held loads: the load
// imbalance max_i x_i / (sum_i x_i / n) and the time imbalance max_i (x_i / s_i) / (sum_i x_i / sum_i s_i)
// (time_imbalance.hpp), both 1 when no load is held. Read at given dates (the value once every change
// of that date is made) and integrated over the run (the area under each curve, in seconds: a run
// balanced from its start scores its duration). Each change costs O(log n).
#pragma once
#include <set>
#include <string>
#include <vector>

namespace hetlb::diffusion {

struct ImbalanceValues {
  std::vector<double> dates;               // as asked, in the order asked
  std::vector<double> load_at, time_at;    // one per date
  double load_integral = 0, time_integral = 0;  // over [start, end]
};

// A change of a node's speed at a date known in advance (a slowdown's start or end).
struct SpeedChange {
  double date = 0;
  int node = 0;
  double speed = 1;
};

// Names of the values in results (JSON keys, campaign columns): "load_imbalance_at_100",
// "time_imbalance_at_0.5" (`view`: "load" or "time"; the date as printed by {} of fmt), and
// "load_imbalance_integral", "time_imbalance_integral".
std::string imbalance_at_name(const std::string& view, double date);
std::string imbalance_integral_name(const std::string& view);

class ImbalanceCurve {
 public:
  // Loads and speeds (> 0) at date `start`, one per node; `dates`: where the curve is read.
  ImbalanceCurve(const std::vector<double>& loads, const std::vector<double>& speeds, std::vector<double> dates,
                 std::vector<SpeedChange> speed_changes = {}, double start = 0);

  // Node `node` holds `load` from `date` on (dates never decrease from one call to the next).
  void set_load(int node, double load, double date);
  // The end of the run at `end`; dates after it read `final_loads` (the loads once the data in flight
  // at the end has arrived). No change after it.
  ImbalanceValues finish(double end, const std::vector<double>& final_loads);

  double load_imbalance() const;
  double time_imbalance() const;

 private:
  void advance(double date);  // the curve up to `date` (excluded): integrals, dates read
  void set_speed(int node, double speed);
  std::vector<double> loads_, speeds_;
  std::multiset<double> by_load_, by_time_;  // x_i and x_i / s_i
  double total_load_ = 0, total_speed_ = 0;
  std::vector<std::size_t> order_;  // indices of the dates, earliest first
  std::size_t next_date_ = 0;       // in order_
  std::vector<SpeedChange> speed_changes_;
  std::size_t next_speed_ = 0;
  double last_ = 0;
  ImbalanceValues values_;
};

}  // namespace hetlb::diffusion
