// Asynchronous iterative load balancing in MPI programs: the simulator's node model (Couturier &
// Giersch, Section "Simulation model", Algorithms 1-3) driving real items between real ranks. The
// strategies and the shared state are the core's (diffusion::balance, diffusion::NodeState).
//
//   hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, options, sizeof(Item));
//   for (...) lb.add(id, &item);                  // this rank's initial items
//   lb.start();                                   // collective
//   do {
//     for (std::size_t i = 0; i < lb.size(); ++i) compute(lb.item(i));
//   } while (lb.iteration_done());                // computing activity; false once every rank agreed
//
// Receiving and balancing run in a progress thread (options.progress_thread, MPI_THREAD_MULTIPLE) or
// in iteration_done()/progress() calls the application makes while computing. docs/runtime.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/mpi/diffusion.h"
#include "hetlb/mpi/error.hpp"

namespace hetlb::mpi {

struct DiffusionOptions {
  // line, ring, torus, hypercube, complete, an edge-list file, or "auto": a torus where the rank count
  // fits one (4 or more ranks, not prime), else a ring (3 ranks and primes), a line of 2, a single rank.
  std::string topology = "auto";
  bool use_comm_graph = false;     // the communicator is the application's distributed graph
  std::string strategy = "besteffort";  // a registered strategy (hetlb strategies) or plugin:PATH
  double k = 1;
  std::vector<std::string> strategy_params;  // NAME=VALUE, parameters of the strategy
  bool virtual_load = false;
  bool integer = false;
  double min_balancing_period = 1e-3;  // s (the simulator's tau), at most 60
  double min_computing_period = 0;     // s (the simulator's tau / 10), at most 60
  // Consecutive computing iterations within `tolerance` to converge. 20 suits applications (the study's
  // specs and hetlb-diffuse set their own).
  long iterations = 20;
  double tolerance = 0.01;
  double time_limit = 0;               // s after start(); 0: none
  bool progress_thread = false;        // needs MPI_THREAD_MULTIPLE, else progress() mode (see notice())

  // Bulk-synchronous mode (docs/runtime.md): for programs whose ranks call iteration_done() the same
  // number of times (a collective or a halo exchange every step). Every `sync_interval` calls the ranks
  // contribute to a non-blocking sum whose result all of them apply `sync_interval` calls later: the
  // run ends at the same call on every rank, and items move only at such calls (a neighbour exchange
  // completed inside the call), so between two calls every item is held by exactly one rank.
  // 0 (the default): adaptive, every call while some rank is out of its band or owes items, doubling up
  // to sync_interval_max once all are in band.
  bool bulk_synchronous = false;
  long sync_interval = 0;  // at most 1,000,000 (as sync_interval_max)
  // Asynchronous mode: iteration_done() waits while the rank holds nothing until items arrive (the
  // papers' idle time), or until it learns that some rank is in stop(). Off by default: a rank without
  // items returns at once.
  bool wait_for_load = false;
  // false: convergence does not end the run (the application ends it with stop(), or time_limit).
  bool end_on_convergence = true;

  // Balancing by completion time (docs/runtime.md, "Speeds"): "time" balances load / speed, so every
  // rank ends near its speed-proportional share; "load" equalises load units (the papers' model).
  std::string balance = "time";
  // Given relative speeds, one per rank of the communicator (> 0, finite; only ratios matter), e.g.
  // 1 / seconds per item from hetlb-calibrate's file. Empty: each rank measures its own (load processed
  // per second in its computing iterations, smoothed exponentially) and reports it to its neighbours.
  std::vector<double> speeds;
  // Or a file of them: hetlb-calibrate's platform JSON as it is (speed = 1 / compute cost per item, in
  // rank order) or numbers separated by spaces, commas or newlines. Read by every rank.
  std::string speeds_file;
  double speed_time_constant = 3;  // measured speeds: the smoothing's time constant, in iterations
  double speed_hysteresis = 0.1;   // measured speeds: the speed used changes when the estimate departs by more
  // Measured speeds: the margin (the speeds' resolution: the speed used follows the estimate beyond it,
  // and the hybrid neither hands over nor steps for an excess within it) is the samples' measured
  // dispersion, at least speed_margin_min and at most speed_hysteresis (docs/runtime.md, "Speeds").
  // speed_margin_min >= speed_hysteresis: the fixed margin speed_hysteresis (as in 0.2.0).
  double speed_margin_min = 0.01;
  // Measured speeds, robust start and changes (docs/runtime.md, "Speeds"): the estimate is the median of
  // the first `speed_window` samples (1: the first sample as it is), and `speed_confirm` consecutive
  // samples beyond a factor 2 of it are a new speed, taken at once (0: never; the smoothing alone).
  // Convergence is declared only once every rank has `speed_window` samples.
  long speed_window = 3;
  long speed_confirm = 2;
  // Bulk-synchronous mode with sync_interval = 0 (adaptive): the longest interval between agreement
  // calls once every rank is in its band (the interval doubles from 1 up to it).
  long sync_interval_max = 8;
  // Bulk-synchronous mode: a wait inside iteration_done() for the other ranks that lasts longer than this
  // (s) means a rank skipped or added a call, or stopped calling: every rank fails with one line on
  // stderr (MPI_Abort) instead of hanging. 0: automatic, max(1 s, 10 x the longest time between two
  // calls of this rank so far), from the 4th call on; < 0: never. Past time_limit a wait of max(1 s,
  // 2 x that time) ends the job whatever this is, so a time-limited run ends.
  double stall_timeout = 0;
  // Which balancer moves the items (docs/runtime.md, "Global steps"): "diffusion" (neighbour to
  // neighbour), "global" (bulk-synchronous mode: a global step, shares from hetlb's exact planner and
  // items moved any to any, whenever some rank is out of its band) or "hybrid" (diffusion, plus a global
  // step when its predicted gain over the iterations left exceeds its measured cost; in the
  // asynchronous mode, or with ItemCallbacks::choose, diffusion alone). The default: "hybrid".
  std::string balancer = "hybrid";
  // The program's declared number of iteration_done() calls (the hybrid trigger's iterations left);
  // 0: unknown, estimated as many again as made so far (at least `iterations`).
  long total_iterations = 0;
  // Calls between two global steps, at least.
  long global_min_interval = 2;
  // Balancers global and hybrid in the bulk-synchronous mode, true: start() itself takes a global step,
  // by the given speeds or, unknown, equal ones, when it shortens the first iteration by more than
  // speed_hysteresis (with measured speeds only when some rank holds nothing: a single start). It is not
  // weighed against its cost (nothing tells yet what computing costs): set it where computing an item
  // costs far more than moving it. false (the default): the program's own distribution is kept until
  // the first call, whose step is weighed.
  bool start_step = false;
};
// Application-owned items, moved Zoltan-style: the balancer keeps their ids, calls pack when one leaves
// this rank (the application forgets it) and unpack when one arrives (in iteration_done/stop). Sizes
// may differ from item to item (size(id) is asked before each pack). docs/runtime.md, "Items".
struct ItemCallbacks {
  std::function<std::size_t(std::uint64_t id)> size;
  std::function<void(std::uint64_t id, void* buffer)> pack;
  std::function<void(std::uint64_t id, const void* buffer, std::size_t bytes)> unpack;
  // Optional: which items leave toward `neighbour` (a rank of the communicator): writes at most `count`
  // distinct ids it holds to `ids` and returns how many (fewer keeps the rest owed, sent later). Unset:
  // the items added or received last. Block-partitioned data gives the cells at that neighbour's border.
  std::function<std::size_t(int neighbour, std::size_t count, std::uint64_t* ids)> choose;
};

// The speeds of a file (see DiffusionOptions::speeds_file); throws hetlb::Error naming the file.
std::vector<double> read_speeds(const std::string& path);

namespace detail {
class DiffusionRuntime;
}

class Diffusion {
 public:
  // Collective. Builds the neighbourhood (MPI_Dist_graph_create_adjacent) and duplicates control, data
  // and termination communicators. Throws hetlb::mpi::Error, the same on every rank, on bad options.
  Diffusion(MPI_Comm comm, const DiffusionOptions& options, std::size_t item_bytes);
  Diffusion(MPI_Comm comm, const DiffusionOptions& options, ItemCallbacks callbacks);
  ~Diffusion();
  Diffusion(const Diffusion&) = delete;
  Diffusion& operator=(const Diffusion&) = delete;

  void add(std::uint64_t id, const void* payload = nullptr);  // before start(); payload: item_bytes
  void start();                                              // collective
  // Collective, before start(): the balancer ("diffusion", "global" or "hybrid"; empty: unchanged) and
  // the program's declared number of iteration_done() calls (0: unknown), as DiffusionOptions::balancer
  // and total_iterations. Throws hetlb::mpi::Error, the same on every rank, on a bad or differing value.
  void set_balancer(const std::string& balancer, long total_iterations = 0);

  // Item costs (docs/runtime.md, "Item costs"): a rank's load is the sum of its items' costs (finite,
  // > 0; 1 unless set, so unit costs count items). Set before start() or between iteration_done()
  // calls, e.g. from each item's measured time; a cost travels with its item. Throws hetlb::mpi::Error
  // (HETLB_DIFFUSION_ERR_ARG) for an id not held or a bad cost.
  void set_cost(std::uint64_t id, double cost);
  void set_costs(std::span<const double> costs);  // one per item held, in item order (id(0), id(1), ...)
  double cost(std::size_t i) const;                // i < size()
  double load() const;                             // this rank's load: the sum of its items' costs

  std::size_t size() const;  // items held now (valid until the next iteration_done/stop)
  // i < size(), else hetlb::mpi::Error (HETLB_DIFFUSION_ERR_ARG).
  std::uint64_t id(std::size_t i) const;
  void* item(std::size_t i);  // fixed-size items only

  // The computing activity's step; false once the run has ended (bulk-synchronous mode: on every rank
  // at the same call). Never waits for load unless options.wait_for_load (asynchronous mode).
  bool iteration_done();
  // The same, told how long this rank computed in the iteration (s, excluding the program's own
  // communication): the speed estimate uses it instead of the time since the last call.
  bool iteration_done(double compute_seconds);
  void progress();        // receiving and balancing, in progress() mode (no-op with a thread)
  // Collective: ends the run now (every rank calls it once; bulk-synchronous mode: after the same
  // number of iteration_done() calls; asynchronous mode: a rank waiting for load returns from
  // iteration_done() once another rank is in stop(), and no later call waits).
  void stop();
  bool finished() const;

  bool application_items() const;      // items moved through ItemCallbacks
  double speed() const;                // this rank's speed: given, or measured (0 before a measurement)
  const std::string& topology() const; // the neighbourhood's name ("torus 2x3", "ring", ...)
  bool threaded() const;               // a progress thread runs
  const std::string& notice() const;   // what the runtime noticed and said once on stderr ("" when nothing)
  MPI_Comm graph() const;              // the neighbourhood communicator
  int degree() const;
  double average_load() const;         // global load (the sum of every item's cost) / ranks

  // Gather and scatter by id (docs/runtime.md, "Gather and scatter by id"): collective, in the
  // bulk-synchronous mode between iteration_done() calls, or once the run has ended (either mode).
  // `local` holds one payload of `item_bytes` bytes per item held, in item order (id(0), id(1), ...);
  // nullptr: the balancer's own fixed-size items (item_bytes their size). At `root`, `root_out` receives
  // total_items() payloads in ascending id order (with ids 0..N-1, item id at position id) and
  // `root_ids` (may be null) those ids; scatter_by_id sends such an array from the root to the ranks
  // holding the ids. Throws hetlb::mpi::Error, the same on every rank, on misuse (nothing moved).
  std::size_t total_items() const;  // every rank's items, summed at start() (conserved)
  void gather_by_id(const void* local, std::size_t item_bytes, void* root_out, int root = 0,
                    std::uint64_t* root_ids = nullptr);
  void scatter_by_id(const void* root_in, std::size_t item_bytes, void* local, int root = 0);

  // Collective, after the end: the simulator's metrics over all ranks (dates from start(), seconds).
  diffusion::Metrics metrics();
  std::string metrics_json();  // collective; on every rank

 private:
  std::unique_ptr<detail::DiffusionRuntime> impl_;
};

}  // namespace hetlb::mpi
