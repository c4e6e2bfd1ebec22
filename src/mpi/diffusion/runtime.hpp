// The diffusion runtime of one rank: the three activities of the simulator's node (Couturier &
// Giersch, Algorithms 1-3) around the core's diffusion::NodeState, over MPI. The application's loop is
// the computing activity (iteration_done); receiving and balancing are poll(), called by a progress
// thread or by the application (progress mode). All MPI calls of the runtime hold `mutex`.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hetlb/balance/hybrid_trigger.hpp"
#include "hetlb/diffusion/convergence.hpp"
#include "hetlb/diffusion/node_state.hpp"
#include "buffer_pool.hpp"
#include "by_id.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "item_store.hpp"
#include "neighbourhood.hpp"
#include "speed_estimator.hpp"
#include "stall_watch.hpp"
#include "all_gather.hpp"
#include "tree_sum.hpp"

namespace hetlb::mpi::detail {

class DiffusionRuntime {
 public:
  // item_bytes > 0: items held by the runtime; application items (callbacks) otherwise.
  DiffusionRuntime(MPI_Comm comm, const DiffusionOptions& options, std::size_t item_bytes, ItemCallbacks callbacks,
                   bool application_items);
  ~DiffusionRuntime();

  void add(std::uint64_t id, const void* payload);
  // Item costs (load units): before start() the initial load, after it a change of this rank's load
  // (and of the total, summed by the next wave).
  void set_cost(std::uint64_t id, double cost);
  void set_costs(const double* costs, std::size_t n);
  void start();
  void set_balancer(const std::string& balancer, long total_iterations);  // collective, before start()
  // compute_seconds < 0: measured from the end of the previous call.
  bool iteration_done(double compute_seconds = -1);
  void progress();
  void stop();
  diffusion::Metrics metrics();
  // After metrics(): end of the run minus the moment the last rank converged (s; NaN unless all did).
  double termination_latency = 0;

  ItemStore store;
  Neighbourhood hood;
  DiffusionOptions options;
  bool threaded = false;
  std::string notice;
  double average = 0;  // total load / ranks
  bool finished() const { return finished_; }
  bool started() const { return started_; }
  long long total_items() const { return total_items_; }  // every rank's items, summed at start()
  // Bulk-synchronous: the agreement calls made (the same on every rank); 0 asynchronous.
  long long agreements() const { return waves_started_; }
  ByIdExchange by_id;  // gather and scatter by id (by_id.hpp)
  double speed() const;  // given, or measured (0 before the first measurement)
  // The resolution of this rank's share (relative; the hybrid's margin), at most speed_hysteresis: with
  // measured speeds the estimator's margin m (the samples' dispersion, between speed_margin_min and
  // speed_hysteresis), by which the speed used may lag its estimate, plus the lag of the sum of the
  // speeds the share divides by (sum_margin_; speed_hysteresis until a wave carried every rank's).
  // Given speeds (no noise, no lag): speed_margin_min.
  double speed_margin() const;

 private:
  struct Outgoing {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<char> bytes;
  };
  struct Incoming {  // a data message being received (its transfer runs while the rank goes on)
    MPI_Request request = MPI_REQUEST_NULL;
    int slot = 0;
    std::vector<char> bytes;
  };

  void poll();  // receiving + balancing + termination; mutex held
  void record_iteration(double compute_seconds);  // convergence streak and speed estimate
  // Computing time of an untimed call (compute_time.cpp): the time since the previous call, less the
  // time blocked meanwhile in the program's MPI calls where the wrappers see them (bulk-synchronous).
  void probe_compute_clock();  // collective, at start()
  double untimed_seconds(double now);
  double own_compute_seconds(double now) const;  // the same, whether the call is timed or not
  // Measured speeds equal while computing times differ (equal_speeds_check.cpp), at agreement calls.
  void bsp_check_equal_speeds(std::unique_lock<std::mutex>& lock);
  // Bulk-synchronous mode (bulk_synchronous.cpp).
  bool bsp_iteration_done(std::unique_lock<std::mutex>& lock);
  void bsp_start_wave();
  void bsp_complete_wave(std::unique_lock<std::mutex>& lock);
  void bsp_stop(std::unique_lock<std::mutex>& lock);
  void handover(std::unique_lock<std::mutex>& lock);
  // `waiting_for` and `slack` are called only past the stall limit, not at every poll (under SMPI,
  // MPI_Request_get_status, which finding the late ranks takes, costs a probe of simulated time).
  void bsp_check_stall(double since, const std::function<std::string()>& waiting_for,
                       const std::function<double()>& slack = nullptr);
  // Global steps (global_step.cpp): true when one was taken at this agreement call.
  bool bsp_global_step(std::unique_lock<std::mutex>& lock);
  void bsp_start();               // the move cost probed and the start step (start_step), inside start()
  void probe_move_cost();         // seconds_per_item_ before any step (move_cost_probe.cpp)
  std::uint64_t move_by_plan(const balance::GlobalStep& plan);  // this rank's transfers; the items it sent
  bool giving_worth() const;      // a hand-over's items are worth their move from this rank (hybrid)
  bool within_margin() const;     // hybrid: this rank's load is within the margin of its share
  // The measured cost of moving one unit of work at the items' present costs (0: unknown, or no item).
  double move_seconds_per_work() const;
  void measured_move(double seconds_per_work);  // a step's measurement, kept per item
  void drain_control();           // every control message sent so far received and dropped
  void reset_diffusion_state();   // a fresh NodeState on the items held (after a global step)
  std::string pending_neighbours(const std::vector<MPI_Request>& requests) const;
  static std::string ranks_text(const std::vector<int>& ranks);  // "3, 5", or "?" when empty
  std::string calls_made_text() const;
  void wait_a_little(std::unique_lock<std::mutex>& lock, double since);
  // Convergence target (speed_target.cpp).
  bool by_time() const;
  void initial_target();
  void contribute_speed();  // into wave_in_[5], [6], [9], [11], and the cost changes into wave_in_[7]
  void update_target();     // from wave_out_ (the total load, then the share)
  double relative(double load) const;  // load / target: the tracker's unit (1 within one item of it)
  mutable double smallest_item_ = std::numeric_limits<double>::infinity();  // smallest cost held so far
  bool receive_control(int source, bool blocking);  // false: nothing there (non-blocking)
  bool receive_data(int source, bool blocking);  // posts the receive of a probed data message
  void data_arrived(Incoming& in);
  void complete_receives(bool wait);
  void receive_all();
  long long data_messages_received() const;
  void balance();
  void termination();
  bool past_time_limit() const;
  void start_wave();
  void wave_done();
  void finish();  // the closing exchange: no data or control message left in flight
  void begin_iteration();
  void send(MPI_Comm comm, int slot, std::vector<char> bytes);
  void reap();
  void take_in();
  void wait_until(double date, std::unique_lock<std::mutex>& lock, bool for_data);
  // Asynchronous mode, wait_for_load: nothing to compute and something may still come.
  bool idle_for_load() const;
  void async_stop(std::unique_lock<std::mutex>& lock);
  void thread_loop();
  double quantum() const;
  int slot_of(int rank) const { return slot_of_.at(rank); }

  diffusion::Strategy strategy_;
  MPI_Comm ctrl_ = MPI_COMM_NULL, data_ = MPI_COMM_NULL, term_ = MPI_COMM_NULL, stop_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 0;
  std::unordered_map<int, int> slot_of_;
  std::optional<diffusion::NodeState> state_;
  std::optional<diffusion::ConvergenceTracker> tracker_;
  std::vector<char> inbox_;  // received items not yet taken in (wire format)
  BufferPool pool_;          // send and receive buffers, reused (buffer_pool.hpp)
  std::vector<std::pair<int, diffusion::Report>> ctrl_fifo_;
  std::vector<diffusion::Report> last_sent_;
  std::vector<char> sent_any_;
  std::vector<double> carry_;  // per slot: released amount not yet sent as whole items
  std::vector<long long> data_to_, data_from_, ctrl_to_, ctrl_from_;
  std::list<Outgoing> outgoing_;
  std::list<Incoming> incoming_;

  bool started_ = false, closing_ = false;
  std::atomic<bool> finished_{false};
  double converged_at_ = -1;  // when the running streak reached `iterations` (s from start), -1: not converged
  double t0_ = 0, next_balance_ = 0, next_wave_ = 0, iteration_start_ = 0, finish_date_ = 0;
  std::size_t iteration_items_ = 0;
  double iteration_load_ = 0;
  double idle_ = 0, moved_ = 0;
  std::uint64_t ctrl_messages_ = 0, ctrl_skipped_ = 0, data_messages_ = 0, comp_iterations_ = 0, lb_iterations_ = 0;
  long long total_items_ = 0, initial_items_ = 0;
  // Load is the sum of the items' costs: the total at start(), and its last known value (the start's
  // plus every rank's cost changes, summed by the waves); this rank's cost changes since start().
  double initial_load_ = 0, total_load_ = 0, load_change_ = 0;

  TreeSum wave_;  // the termination wave in progress, if active()
  AllGather contributions_;  // the global steps' gather (global_step.cpp, all_gather.hpp)
  AllGather speeds_gather_;  // the equal-speeds check's (equal_speeds_check.cpp), on speeds_check_
  static constexpr int kSpeedsCheckTag = 1, kSpeedsCheckValues = 5;
  // not converged, not settled, data sent, data received, timed out (termination())
  // [5]: sum of the speeds, [6]: ranks whose speed is known, [7]: cost changes (speed_target.cpp)
  // [8]: ranks in stop() (asynchronous mode), ranks that found the last sum cheap (bulk-synchronous)
  // [9]: ranks whose speed is measured, trusted or not
  // [10]: ranks owing a whole item that would give it (bulk-synchronous: handover_worth, hybrid)
  static constexpr int kWaveCounters = 12;
  double wave_in_[kWaveCounters] = {}, wave_out_[kWaveCounters] = {};
  long long waves_started_ = 0;
  bool frozen_ = false;  // settled contribution to the wave in progress: no decisions until its result
  bool hold_ = false;    // the last wave found every rank converged: no decisions until the next one
  // Asynchronous stop(): this rank is in it (no more decisions); a wave found some rank in it (a rank
  // holding nothing no longer waits for load, so that its program reaches its own stop()).
  bool stopping_ = false, others_stopping_ = false;

  // Bulk-synchronous mode: iteration_done() calls so far; the wave started at the last agreement call
  // (its result applied at the next one).
  long long calls_ = 0;
  long sync_interval_ = 1;         // calls from the last agreement call to the next
  long long next_agreement_ = 1;   // the call count of the next agreement call
  long long wave_call_ = 0;        // the call at which the wave in progress (or last completed) was started
  long long previous_wave_call_ = 0;  // the call at which the wave before it was started
  // The sums are cheap (handover_rule.hpp, agreement_cheap): this rank's last completion was, voted in
  // the next sum (wave_in_[8] in this mode); the end of the last agreement call, to measure the span.
  bool sum_cheap_ = false;
  double last_agreement_end_ = 0, wave_start_seconds_ = 0;  // the last agreement's end, its sum's sends
  StallWatch stall_;               // how long a wait for the other ranks may last
  bool wave_ready_ = false;
  long long handovers_ = 0;

  SpeedEstimator estimator_;
  double given_speed_ = 0;  // options.speeds[rank] (0: measured)
  double target_ = 0;       // this rank's convergence target (load)
  double contributed_speed_ = 0;
  // The relative lag of the sum of the speeds used: sum(s_i m_i) / sum(s_i) over the ranks, m_i their
  // estimators' margins, from the last wave that carried every rank's speed (-1: none yet).
  double sum_margin_ = -1;
  // Every rank's share is known: given speeds, balance by load, or every measured speed trusted by one
  // wave (speed_target.cpp). Iterations before count as out of the band.
  bool shares_known_ = true;
  // Every rank has measured its speed at least once (one wave): the targets and the global step use the
  // measured shares from then on, before they are trusted (convergence still waits for shares_known_).
  bool shares_measured_ = true;

  // Global steps (global_step.cpp): the communicator of their collective and transfers (bulk-
  // synchronous mode with balancer global or hybrid), the trigger, the steps taken (this rank's items
  // sent in each), when to gather next, and the measured costs.
  MPI_Comm global_ = MPI_COMM_NULL;
  std::optional<balance::HybridTrigger> trigger_;
  std::vector<diffusion::GlobalStepRecord> global_steps_;
  long long next_gather_ = 1, gather_gap_ = 1;
  bool gather_soon_ = false;  // the last step was on provisional speeds: gather at the next call
  // The last consideration declined a step, and no step or hand-over came since (the same on every rank):
  // ranks out of their band that owe nothing are then idle, and the agreements back off.
  bool step_declined_ = false;
  // The cost of moving is kept per item (the probe's, then each step's measurement converted with this
  // rank's mean cost per item): per unit of work it changes with the items' costs (set_costs after
  // start() may turn a unit cost into a million), a move's bytes do not.
  double last_compute_seconds_ = 0, gather_seconds_ = 0, seconds_per_item_ = 0;

  // Untimed calls (compute_time.cpp): the blocked-time counter at the iteration's start; why the
  // program's MPI calls are not seen ("" when they are), told once.
  double blocked_at_start_ = 0;
  std::string compute_clock_unavailable_;
  bool compute_clock_told_ = false;
  // The equal-speeds check (equal_speeds_check.cpp): its communicator, the last iteration's computing
  // time as this rank sees it, consecutive checks that found it, the next check's call.
  MPI_Comm speeds_check_ = MPI_COMM_NULL;
  double last_own_seconds_ = 0;
  int equal_speed_checks_ = 0;
  long long next_speed_check_ = 0, speed_check_gap_ = 4;
  bool equal_speeds_told_ = false;

  std::mutex mutex_;
  std::condition_variable data_cv_;
  std::thread thread_;
  bool quit_ = false;
};

}  // namespace hetlb::mpi::detail
