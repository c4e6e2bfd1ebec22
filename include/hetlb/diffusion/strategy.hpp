// Load-balancing strategies of Couturier & Giersch as pure functions: a node's own load and the
// last known loads of its neighbours in, the amount to send to each neighbour out. No clock, no
// messages: the SimGrid adapter (and later the MPI runtime) call these at each balancing step.
#pragma once
#include <string>
#include <vector>

namespace hetlb::diffusion {

enum class StrategyKind { none, simple, makhoul, besteffort };

struct Strategy {
  StrategyKind kind = StrategyKind::besteffort;
  double k = 1.0;        // best effort: each computed transfer is divided by k (k >= 1)
  bool integer = false;  // integer load: transfers rounded as in integer_transfers()
  // simple: a neighbour lighter than the node by less than kNegligibleTransfer of its load counts as
  // equal, so floating-point residue cannot bound the transfer. Off: the draft's rule as stated.
  bool residue_equal = false;
};

// "none", "simple", "makhoul", "besteffort"; throws hetlb::Error otherwise.
StrategyKind parse_strategy(const std::string& name);
std::string to_string(StrategyKind kind);

// Real-load transfers smaller than this fraction of the sender's load are dropped by balance().
inline constexpr double kNegligibleTransfer = 1e-9;

// Transfers (same order as `neighbours`, each >= 0, sum <= load) decided by `strategy` for a node of
// load `load` whose neighbours are believed to hold `neighbours`.
std::vector<double> balance(const Strategy& strategy, double load, const std::vector<double>& neighbours);

// The real-valued rules, one file each.
std::vector<double> simple_transfers(double load, const std::vector<double>& neighbours, bool residue_equal = false);
std::vector<double> makhoul_transfers(double load, const std::vector<double>& neighbours);
std::vector<double> best_effort_transfers(double load, const std::vector<double>& neighbours, double k);

// Integer domain (DASUD's rules, see integer_transfers.cpp): rounds real transfers down; when all of
// them round to 0, one unit goes to the least loaded neighbour if the node exceeds it by 2 units, or
// by 1 unit while another neighbour exceeds it by 2 (the node's domain is unbalanced).
std::vector<double> integer_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& real_transfers);

// Neighbour indices sorted by non-decreasing known load, ties by index (deterministic).
std::vector<int> order_by_load(const std::vector<double>& neighbours);

}  // namespace hetlb::diffusion
