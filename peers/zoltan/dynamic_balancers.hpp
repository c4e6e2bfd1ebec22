// The policies of the dynamic comparison with Zoltan (issue 33, dynamic half), run by
// hetlb-peers-diffuse on hetlb-diffuse's items, kernel and emulated speeds: every rank holds its items
// in a map (id -> bytes), computes each one once per iteration, then calls its balancer, which may move
// items (always whole items at the iteration boundary, so every item is processed exactly --work times).
//   none                 no balancing;
//   static               hetlb's exact plan (RR-4770) from the given speeds, computed and applied once
//                        (with item costs: each rank's share of the plan becomes its share of the cost);
//   hetlb                hetlb's runtime with its defaults (what a user gets untuned): bulk-synchronous,
//                        balancer hybrid (diffusion plus global steps when they pay), balancing by time
//                        with measured speeds, the items' costs given (set_cost), the number of
//                        iterations declared (total_iterations, as docs/runtime.md tells a program to);
//   hetlb-global         the same with the balancer global (a global step whenever some rank is out of
//                        its band);
//   besteffort1|besteffort2|makhoul[-vl]
//                        hetlb's diffusion alone (balancer diffusion), bulk-synchronous, balancing by time
//                        with measured speeds (best effort k = 1 or 2, Makhoul; -vl: with virtual load),
//                        tau = the average load's time, the items' costs given;
//   zoltan:P             after iteration 1 and then every P iterations, a synchronous repartition:
//                        Zoltan_LB_Partition (method BLOCK) with part sizes (Zoltan_LB_Set_Part_Sizes)
//                        the speeds each rank measured since the last one (cost processed per second),
//                        the items' costs as object weights, and Zoltan_Migrate with pack/unpack
//                        callbacks;
//   zoltan-imbalance:T   the same repartition after iteration 1 and then after every iteration whose
//                        computing-time imbalance (max / mean over the ranks, one MPI_Allreduce per
//                        iteration) exceeds T > 1.
// hetlb's runtime and Zoltan get the same information: the items' costs and the measured times.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

namespace peers {

using ItemMap = std::map<std::uint64_t, std::vector<unsigned char>>;

struct BalancerChoice {
  enum class Kind { None, Static, Hetlb, Zoltan } kind = Kind::None;
  std::string strategy;  // Hetlb: besteffort or makhoul
  double k = 1;
  bool virtual_load = false;
  std::string hetlb_balancer = "diffusion";  // Hetlb: diffusion (named variants), hybrid or global
  bool defaults = false;                     // Hetlb: the runtime's default options (hetlb, hetlb-global)
  bool equal_speeds = false;  // Static: the plan given equal speeds (static-equal: the speeds unknown beforehand)
  long period = 0;           // Zoltan: P (0: triggered by imbalance)
  double threshold = 0;      // Zoltan, triggered: the imbalance T
};

// Throws std::invalid_argument "--balancer X: expected ..." for an unknown policy, P < 1 or T <= 1.
BalancerChoice parse_balancer(const std::string& name);

struct BalancerSettings {
  std::vector<double> speeds;  // given (static); one per rank
  double tau = 1e-3;           // hetlb: minimum balancing period (the simulator's tau)
  std::size_t item_bytes = 64;
  std::vector<double> costs;   // each item's cost by id, relative (empty: every item costs 1)
  // Costs that change from iteration to iteration (--kernel drift): the program's vector of each item's
  // cost in the iteration just computed, updated before each after_iteration (null: `costs` throughout).
  const std::vector<double>* live_costs = nullptr;
  // hetlb's runtime options changed from their defaults for a tuning study (--hetlb-option KEY=VALUE):
  // the keys of hetlb_option_keys(), with DiffusionOptions' names.
  std::vector<std::string> hetlb_options;
  // The calls to the balancer the program makes (one per iteration but the last), which `hetlb` and
  // `hetlb-global` declare as a user is told to (docs/runtime.md: total_iterations); 0: undeclared.
  long iteration_calls = 0;
};

// The runtime options --hetlb-option may change, joined for a message ("speed_window, ... or tolerance").
std::string hetlb_option_keys();
// Throws std::invalid_argument "--hetlb-option X: expected ..." for an unknown key or a bad value.
void check_hetlb_option(const std::string& key_value);

class Balancer {
 public:
  virtual ~Balancer() = default;
  // Collective; before the first iteration (items already in `items`).
  virtual void start(ItemMap& items) = 0;
  // Collective; after each iteration: `computed` s spent on `processed` items (their summed costs)
  // this iteration.
  virtual void after_iteration(ItemMap& items, long iteration, double computed, double processed) = 0;
  // Collective; after the last iteration.
  virtual void finish(ItemMap& items) = 0;
  // Collective, after finish(): hetlb's runtime metrics as JSON (global steps, moves); "" for the others.
  virtual std::string metrics_json() { return {}; }
  std::uint64_t received = 0;  // items this rank received
};

std::unique_ptr<Balancer> make_balancer(const BalancerChoice& choice, const BalancerSettings& settings, MPI_Comm comm);

}  // namespace peers
