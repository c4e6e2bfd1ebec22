// The rank's convergence target (docs/runtime.md, "Speeds"): balanced by load, the average; balanced
// by time, its speed-proportional share total x s_i / sum(s). The total is the sum of the items' costs;
// when the program changes costs, every wave sums the changes and the target follows the new total.
// Given speeds are known everywhere at start(); measured ones are summed by every termination or
// agreement wave (with the counts of ranks that measured theirs and whose measurement is trusted), and
// the share is updated from each wave's result once every rank has measured its speed: from the first
// samples on, so that hand-overs and the global step aim at the measured shares, not at the average.
// The same waves carry sum(s_i m_i), m_i the ranks' speed margins: the relative lag of the speeds' sum.
// No iteration counts toward convergence before every rank's measurement is trusted (shares_known_).
// The convergence tracker works on load / target, so "in the band" is |load - target| <= tol x target.
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime.hpp"

namespace hetlb::mpi::detail {

bool DiffusionRuntime::by_time() const { return options.balance == "time"; }

void DiffusionRuntime::initial_target() {
  target_ = average;
  if (!by_time() || options.speeds.empty()) return;
  double sum = 0;
  for (double s : options.speeds) sum += s;
  target_ = total_load_ * given_speed_ / sum;
}

// A measured speed counts as known once trusted (the estimator's window of first samples is full).
void DiffusionRuntime::contribute_speed() {
  const double s = by_time() ? speed() : 0.0;
  wave_in_[5] = s;
  wave_in_[6] = s > 0 && (given_speed_ > 0 || estimator_.trusted()) ? 1 : 0;
  contributed_speed_ = s;
  wave_in_[7] = load_change_;
  wave_in_[9] = s > 0 ? 1 : 0;
  wave_in_[11] = given_speed_ > 0 ? 0.0 : s * estimator_.margin();  // the lag of the sum (runtime.hpp)
}

void DiffusionRuntime::update_target() {
  const double total = initial_load_ + wave_out_[7];
  if (total != total_load_) {  // costs changed: the same share of the new total
    if (total_load_ > 0) target_ *= total / total_load_;
    total_load_ = total;
    average = total / size_;
    if (!(target_ > 0) && !by_time()) target_ = average;
  }
  if (!by_time() || !options.speeds.empty()) return;
  if (wave_out_[9] == size_ && wave_out_[5] > 0 && contributed_speed_ > 0) {
    target_ = total_load_ * contributed_speed_ / wave_out_[5];
    sum_margin_ = wave_out_[11] / wave_out_[5];
    shares_measured_ = true;
    if (wave_out_[6] == size_) shares_known_ = true;
  }
}

// Whole items: counts move by whole items, and the least makespan over whole counts (the global step's
// plan) can leave a rank up to p x s_i / sum(s) items from its share total x s_i / sum(s) (a fast rank
// takes the last items). A load less than max(1, target / average) items from its target is as near as
// the items allow: on target. Without it a 1% band around a share of a few items cannot be met, and the
// ranks never converge and keep handing over nothing. The item: the smallest cost this rank has held.
double DiffusionRuntime::relative(double load) const {
  if (store.size() > 0) smallest_item_ = std::min(smallest_item_, store.smallest_cost());
  const double item = std::isfinite(smallest_item_) ? smallest_item_ : 1.0;
  const double items = average > 0 ? std::max(1.0, target_ / average) : 1.0;
  if (target_ > 0 && std::abs(load - target_) < item * items) return 1.0;
  if (target_ > 0) return load / target_;
  return load == 0 ? 1.0 : std::numeric_limits<double>::infinity();
}

}  // namespace hetlb::mpi::detail
