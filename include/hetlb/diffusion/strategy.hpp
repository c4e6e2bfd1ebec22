// Load-balancing strategies of Couturier & Giersch as pure functions: a node's own load and the
// last known loads of its neighbours in, the amount to send to each neighbour out. No clock, no
// messages: the SimGrid adapter (and later the MPI runtime) call these at each balancing step.
#pragma once
#include <string>
#include <vector>

namespace hetlb::diffusion {

struct Rule;  // a registered strategy (built in or plug-in): strategy_registry.hpp

// What a strategy equalises: load units (the papers' model, every processor alike) or completion
// time, a node's load divided by its speed (docs/simulation.md, "Balancing by time").
enum class Balance { load, time };

// A strategy as run: a registered rule, its parameter values (one per parameter the rule declares,
// each checked against the declared range) and the load domain.
class Strategy {
 public:
  Strategy();  // best effort, k = 1
  // The rule registered as `name` (a built-in's name or plugin:PATH; hetlb::Error otherwise) with its
  // default parameters; `k` sets the rule's parameter "k" when it has one.
  Strategy(const std::string& name, double k = 1.0, bool integer = false);  // NOLINT: implicit from a name
  Strategy(const char* name, double k = 1.0, bool integer = false) : Strategy(std::string(name), k, integer) {}
  explicit Strategy(const Rule& rule);

  const Rule& rule() const { return *rule_; }
  const std::string& name() const;
  bool has(const std::string& param) const;
  // A parameter's value; hetlb::Error when the rule has no such parameter.
  double param(const std::string& param) const;
  // Sets a parameter: hetlb::Error naming the strategy, parameter and value when the rule has no such
  // parameter or the value is outside its declared range or type.
  void set(const std::string& param, double value);
  // "name=value" (the value as text, a flag also as true/false).
  void set(const std::string& assignment);
  const std::vector<double>& params() const { return params_; }
  // The name and every parameter, "besteffort k=2" (flags only when set: "simple residue_equal").
  std::string describe() const;

  bool integer = false;  // integer load: transfers rounded as in integer_transfers()

 private:
  const Rule* rule_;
  std::vector<double> params_;
};

// The one default of every front end (the simulator, campaigns, the MPI runtime in C, C++ and Fortran,
// hetlb-diffuse, Python): time. On equal speeds it is the same balance as load (equal loads finish
// together); on unlike processors only shares proportional to the speeds finish together, which is what
// a user asking for balance means. The papers' model, load units, is asked for by name (--balance load;
// the study's specs say "balance": "load").
inline constexpr Balance kDefaultBalance = Balance::time;

// "load" or "time"; throws hetlb::Error otherwise.
Balance parse_balance(const std::string& name);
std::string to_string(Balance balance);
// A speed must be finite and > 0; throws hetlb::Error naming `what` and the value otherwise.
void check_speed(double speed, const std::string& what);

// Real-load transfers smaller than this fraction of the sender's load are dropped by balance().
inline constexpr double kNegligibleTransfer = 1e-9;

// Who decides and when: the node's index and the date (seconds), -1 when unknown. A plug-in sees
// them; a faulty plug-in decision is reported with them.
struct Moment {
  int node = -1;
  double date = -1;
};

// Transfers (same order as `neighbours`, each >= 0, sum <= load) decided by `strategy` for a node of
// load `load` whose neighbours are believed to hold `neighbours`. A plug-in's answer is checked:
// hetlb::Error naming the library, the node and the date when it is not such a list.
std::vector<double> balance(const Strategy& strategy, double load, const std::vector<double>& neighbours,
                            Moment at = {});

// The same decision in the time view: the node runs at `speed`, neighbour j at `neighbour_speeds[j]`
// (each finite and > 0; only ratios matter). The rules compare load / speed and send load units
// converted with the receiver's speed. With all speeds equal the result is bit-identical to balance().
std::vector<double> balance_time(const Strategy& strategy, double load, double speed,
                                 const std::vector<double>& neighbours, const std::vector<double>& neighbour_speeds,
                                 Moment at = {});

// The rules, one file each. `speeds` holds each neighbour's speed relative to the node's own
// (s_j / s_i); empty means all equal, the papers' model. Loads stay in load units throughout.
std::vector<double> simple_transfers(double load, const std::vector<double>& neighbours, bool residue_equal = false,
                                     const std::vector<double>& speeds = {});
std::vector<double> makhoul_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& speeds = {});
std::vector<double> best_effort_transfers(double load, const std::vector<double>& neighbours, double k,
                                          const std::vector<double>& speeds = {});

// Integer domain (DASUD's rules, see integer_transfers.cpp): rounds real transfers down; when all of
// them round to 0, one unit goes to the least loaded neighbour if the node exceeds it by 2 units, or
// by 1 unit while another neighbour exceeds it by 2 (the node's domain is unbalanced).
// With `speeds` (relative, as above) the same rules are taken in time: see integer_transfers.cpp.
std::vector<double> integer_transfers(double load, const std::vector<double>& neighbours,
                                      const std::vector<double>& real_transfers, const std::vector<double>& speeds = {});

// Neighbour indices sorted by non-decreasing known load, ties by index (deterministic).
std::vector<int> order_by_load(const std::vector<double>& neighbours);

// Neighbour j's completion time in the node's view: load / relative speed (load itself when `speeds`
// is empty). Dividing by 1.0 is exact, so equal speeds give back the loads bit for bit.
inline double time_of(const std::vector<double>& neighbours, const std::vector<double>& speeds, std::size_t j) {
  return speeds.empty() ? neighbours[j] : neighbours[j] / speeds[j];
}
inline double speed_of(const std::vector<double>& speeds, std::size_t j) { return speeds.empty() ? 1.0 : speeds[j]; }

}  // namespace hetlb::diffusion
