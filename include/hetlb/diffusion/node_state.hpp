// The state a node's three activities share (Couturier & Giersch, Section "Simulation model",
// Algorithms 1-3), as a pure object: the receiving activity feeds it control and data messages, the
// computing activity takes received load in and sends what is owed, the load-balancing activity
// decides transfers and reports. The SimGrid simulator and the MPI runtime drive the same object.
//
// Bookkeeping (docs/simulation.md, "What a node knows"):
//  - own view: real + received-not-yet-taken-in - owed (decided, not yet sent); with virtual load,
//    real + announced-to-us-not-yet-arrived - owed, i.e. every announcement counts at once;
//  - estimate of neighbour j: the last load j reported, plus what we decided for j that j's report
//    did not account for yet (each report carries the cumulative amount from us it includes).
//    `Estimates::reported` keeps the literal reading (last report only) as an option.
#pragma once
#include <string>
#include <vector>

#include "hetlb/diffusion/strategy.hpp"

namespace hetlb::diffusion {

enum class Estimates { accounted, reported };

// "accounted" or "reported"; throws hetlb::Error otherwise.
Estimates parse_estimates(const std::string& name);
std::string to_string(Estimates e);

// What a control message carries to one neighbour.
struct Report {
  double load = 0;       // the sender's own view after its decision
  double announced = 0;  // virtual load: the transfer just decided for this neighbour
  double accounted = 0;  // cumulative amount from this neighbour that `load` includes
  double speed = 1.0;    // the sender's speed (balance by time); 1 when speeds are not used
  bool operator==(const Report&) const = default;
};

class NodeState {
 public:
  // With Balance::time, decisions compare load / speed (balance_time) using `speed` for the node and
  // the speeds its neighbours last reported (1.0 until a neighbour has reported).
  NodeState(double initial_load, int degree, bool virtual_load, Estimates estimates = Estimates::accounted,
            Balance balance = Balance::load, double speed = 1.0);

  // The node's own speed, given or measured; must be finite and > 0 (hetlb::Error otherwise).
  void set_speed(double speed);
  double speed() const { return speed_; }
  // Deprecated in 0.2 (unused by hetlb; go in 0.3).
  [[deprecated("removed in hetlb 0.4")]] double neighbour_speed(int slot) const { return speeds_[slot]; }
  [[deprecated("removed in hetlb 0.4")]] Balance balance_kind() const { return balance_; }

  // Receiving activity.
  void control_received(int slot, const Report& report);
  void data_received(int slot, double amount);

  // Computing activity: received data into the real load, then what is owed, as far as held.
  void take_in();
  // Amount to send now to `slot` (removed from the real load and from what is owed); 0 if nothing.
  double release(int slot);
  // The node's own load changed by `change` without a transfer (the program re-costed its items).
  void add_own(double change) { real_ += change; }

  // Load-balancing activity: runs `strategy` on the own view and the estimates; the transfers
  // (one per slot) become owed. Returns them. `at`: the node and date, for a plug-in.
  const std::vector<double>& decide(const Strategy& strategy, Moment at = {});
  // The transfers decide() would make now, without making them.
  std::vector<double> plan(const Strategy& strategy) const;
  // The control message for `slot` after the last decision.
  Report report(int slot) const;

  double own_view() const;
  double estimate(int slot) const;
  const std::vector<double>& estimates() const { return estimates_; }  // as used by the last decision
  double real() const { return real_; }
  double pending() const { return pending_; }
  double owed(int slot) const { return owed_[slot]; }
  double owed_total() const;
  bool heard_from_all() const;
  int degree() const { return static_cast<int>(known_.size()); }

 private:
  bool virtual_load_;
  Estimates estimates_kind_;
  Balance balance_;
  double speed_;
  std::vector<double> speeds_;  // last speed reported by each neighbour
  double real_ = 0, pending_ = 0, virtual_ = 0;
  std::vector<double> known_, acked_, promised_, accounted_, owed_, last_decision_, estimates_;
};

}  // namespace hetlb::diffusion
