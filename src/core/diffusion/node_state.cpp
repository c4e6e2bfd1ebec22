// Shared state of a node's three activities (Couturier & Giersch, Section "Simulation model").
#include "hetlb/diffusion/node_state.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::diffusion {

Estimates parse_estimates(const std::string& name) {
  if (name == "accounted") return Estimates::accounted;
  if (name == "reported") return Estimates::reported;
  throw Error(fmt::format("estimates \"{}\": unknown; expected accounted or reported", name));
}

std::string to_string(Estimates e) { return e == Estimates::accounted ? "accounted" : "reported"; }

NodeState::NodeState(double initial_load, int degree, bool virtual_load, Estimates estimates, Balance balance,
                     double speed)
    : virtual_load_(virtual_load), estimates_kind_(estimates), balance_(balance), speed_(speed),
      speeds_(degree, 1.0), real_(initial_load), virtual_(initial_load),
      known_(degree, std::numeric_limits<double>::infinity()), acked_(degree, 0.0), promised_(degree, 0.0),
      accounted_(degree, 0.0), owed_(degree, 0.0), last_decision_(degree, 0.0), estimates_(degree, 0.0) {
  check_speed(speed, "node speed");
}

void NodeState::set_speed(double speed) {
  check_speed(speed, "node speed");
  speed_ = speed;
}

void NodeState::control_received(int slot, const Report& r) {
  known_[slot] = r.load;
  if (balance_ == Balance::time) {
    check_speed(r.speed, "reported neighbour speed");
    speeds_[slot] = r.speed;
  }
  acked_[slot] = r.accounted;
  if (virtual_load_ && r.announced > 0) {
    virtual_ += r.announced;
    accounted_[slot] += r.announced;
  }
}

void NodeState::data_received(int slot, double amount) {
  pending_ += amount;
  if (!virtual_load_) accounted_[slot] += amount;
}

void NodeState::take_in() {
  real_ += pending_;
  pending_ = 0;
}

double NodeState::release(int slot) {
  const double a = std::min(owed_[slot], real_);
  if (!(a > 0)) return 0;
  real_ -= a;
  owed_[slot] -= a;
  return a;
}

double NodeState::owed_total() const {
  double s = 0;
  for (double o : owed_) s += o;
  return s;
}

double NodeState::own_view() const {
  return std::max(0.0, virtual_load_ ? virtual_ : real_ + pending_ - owed_total());
}

double NodeState::estimate(int slot) const {
  if (estimates_kind_ == Estimates::reported) return known_[slot];
  return known_[slot] + (promised_[slot] - acked_[slot]);
}

bool NodeState::heard_from_all() const {
  return std::none_of(known_.begin(), known_.end(), [](double k) { return k == std::numeric_limits<double>::infinity(); });
}

std::vector<double> NodeState::plan(const Strategy& strategy) const {
  std::vector<double> est(known_.size());
  for (int p = 0; p < degree(); ++p) est[p] = estimate(p);
  if (balance_ == Balance::time) return balance_time(strategy, own_view(), speed_, est, speeds_);
  return balance(strategy, own_view(), est);
}

const std::vector<double>& NodeState::decide(const Strategy& strategy, Moment at) {
  for (int p = 0; p < degree(); ++p) estimates_[p] = estimate(p);
  last_decision_ = balance_ == Balance::time ? balance_time(strategy, own_view(), speed_, estimates_, speeds_, at)
                                             : balance(strategy, own_view(), estimates_, at);
  for (int p = 0; p < degree(); ++p) {
    const double t = last_decision_[p];
    if (!(t > 0)) continue;
    owed_[p] += t;
    promised_[p] += t;
    if (virtual_load_) virtual_ -= t;
  }
  return last_decision_;
}

Report NodeState::report(int slot) const {
  return Report{own_view(), virtual_load_ ? last_decision_[slot] : 0.0, accounted_[slot], speed_};
}

}  // namespace hetlb::diffusion
