// Set-up, start and the computing activity of the diffusion runtime (runtime.hpp).
#include "runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "blocked_time.hpp"
#include "clock.hpp"
#include "consistency.hpp"
#include "global_step.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"

namespace hetlb::mpi::detail {

namespace {
constexpr int kWaveTag = 9;  // termination waves on term_ (the closing exchange uses 8)
// Bounds that keep a run able to end on its time limit (docs/limits.md): the periods set the waits
// and the termination waves' pace, the intervals the bulk-synchronous agreements'.
constexpr double kMaxPeriod = 60;
constexpr long kMaxSyncInterval = 1000000;

// Argument checks, the same verdict on every rank (the options are the same on every rank; a rank
// whose options differ is reported by the lowest such rank).
void check_options(const DiffusionOptions& given, std::size_t item_bytes, bool application_items,
                   const ItemCallbacks& callbacks, diffusion::Strategy& s, MPI_Comm comm,
                   std::vector<double>& speeds) {
  DiffusionOptions o = given;
  int status = HETLB_DIFFUSION_SUCCESS;
  std::string reason;
  try {
    if (!(o.k >= 1)) throw hetlb::Error(fmt::format("k = {}: expected k >= 1", o.k));
    s = diffusion::strategy_of(o.strategy, o.k, false, o.strategy_params, o.integer);
    if (!application_items && item_bytes == 0) throw hetlb::Error("item size 0: expected items of at least 1 byte");
    if (application_items && (!callbacks.size || !callbacks.pack || !callbacks.unpack))
      throw hetlb::Error("item callbacks: size, pack and unpack are all required");
    if (!(o.min_balancing_period > 0 && o.min_balancing_period <= kMaxPeriod))
      throw hetlb::Error(fmt::format("min_balancing_period = {}: expected a positive number of seconds, at most {:g}",
                                     o.min_balancing_period, kMaxPeriod));
    if (!(o.min_computing_period >= 0 && o.min_computing_period <= kMaxPeriod))
      throw hetlb::Error(fmt::format("min_computing_period = {}: expected a non-negative number of seconds, at "
                                     "most {:g}", o.min_computing_period, kMaxPeriod));
    if (o.iterations < 1) throw hetlb::Error(fmt::format("iterations = {}: expected at least 1", o.iterations));
    if (!(o.tolerance > 0)) throw hetlb::Error(fmt::format("tolerance = {}: expected > 0", o.tolerance));
    if (!(o.time_limit >= 0)) throw hetlb::Error(fmt::format("time_limit = {}: expected >= 0 s", o.time_limit));
    diffusion::parse_balance(o.balance);
    if (!o.speeds_file.empty()) {
      if (!o.speeds.empty()) throw hetlb::Error("speeds and speeds_file: expected one of them");
      o.speeds = read_speeds(o.speeds_file);
      speeds = o.speeds;
    }
    int ranks = 0;
    MPI_Comm_size(comm, &ranks);
    if (!o.speeds.empty() && o.speeds.size() != static_cast<std::size_t>(ranks))
      throw hetlb::Error(fmt::format("{}: {} values for {} ranks; expected one speed per rank",
                                     o.speeds_file.empty() ? "speeds" : "speeds_file " + o.speeds_file,
                                     o.speeds.size(), ranks));
    for (std::size_t r = 0; r < o.speeds.size(); ++r)
      if (!(o.speeds[r] > 0) || !std::isfinite(o.speeds[r]))
        throw hetlb::Error(fmt::format("speeds[{}] = {}: expected a finite speed > 0", r, o.speeds[r]));
    if (!(o.speed_hysteresis >= 0) || !std::isfinite(o.speed_hysteresis))
      throw hetlb::Error(fmt::format("speed_hysteresis = {}: expected a relative change >= 0", o.speed_hysteresis));
    if (!(o.speed_margin_min >= 0) || !std::isfinite(o.speed_margin_min))
      throw hetlb::Error(fmt::format("speed_margin_min = {}: expected a relative change >= 0", o.speed_margin_min));
    if (!(o.speed_time_constant > 0) || !std::isfinite(o.speed_time_constant))
      throw hetlb::Error(fmt::format("speed_time_constant = {}: expected a positive number of iterations",
                                     o.speed_time_constant));
    if (o.sync_interval < 0 || o.sync_interval > kMaxSyncInterval)
      throw hetlb::Error(fmt::format("sync_interval = {}: expected 0 (adaptive) or 1 to {} iterations",
                                     o.sync_interval, kMaxSyncInterval));
    if (o.sync_interval_max < 1 || o.sync_interval_max > kMaxSyncInterval)
      throw hetlb::Error(fmt::format("sync_interval_max = {}: expected 1 to {} iterations", o.sync_interval_max,
                                     kMaxSyncInterval));
    if (o.speed_window < 1)
      throw hetlb::Error(fmt::format("speed_window = {}: expected at least 1 sample", o.speed_window));
    if (o.speed_confirm < 0)
      throw hetlb::Error(fmt::format("speed_confirm = {}: expected 0 (never) or a number of samples", o.speed_confirm));
    if (std::isnan(o.stall_timeout))
      throw hetlb::Error("stall_timeout = nan: expected seconds (0: automatic, < 0: never)");
    check_balancer(o);
    if (o.bulk_synchronous && o.wait_for_load)
      throw hetlb::Error("wait_for_load with bulk_synchronous: expected one of them (a bulk-synchronous rank never "
                         "waits for load)");
  } catch (const std::exception& e) {
    status = HETLB_DIFFUSION_ERR_ARG;
    reason = e.what();
  }
  agree(status, reason, comm);
}
}  // namespace

DiffusionRuntime::DiffusionRuntime(MPI_Comm comm, const DiffusionOptions& o, std::size_t item_bytes,
                                   ItemCallbacks callbacks, bool application_items)
    : store(application_items ? 0 : item_bytes, callbacks),
      options(o),
      estimator_(o.speed_time_constant, o.speed_hysteresis, o.speed_window, o.speed_confirm, o.speed_margin_min) {
  check_options(o, item_bytes, application_items, callbacks, strategy_, comm, options.speeds);
  check_same_options(o, item_bytes, application_items, comm);
  hood = make_neighbourhood(comm, o.topology, o.use_comm_graph);
  MPI_Comm_rank(hood.graph, &rank_);
  MPI_Comm_size(hood.graph, &size_);
  if (!options.speeds.empty()) given_speed_ = options.speeds[static_cast<std::size_t>(rank_)];
  MPI_Comm_dup(hood.graph, &ctrl_);
  MPI_Comm_dup(hood.graph, &data_);
  MPI_Comm_dup(hood.graph, &term_);
  MPI_Comm_dup(hood.graph, &stop_);
  wave_.init(term_, kWaveTag, kWaveCounters);
  const int degree = static_cast<int>(hood.neighbours.size());
  for (int p = 0; p < degree; ++p) slot_of_[hood.neighbours[p]] = p;
  last_sent_.resize(degree);
  sent_any_.assign(degree, 0);
  carry_.assign(degree, 0);
  data_to_.assign(degree, 0);
  data_from_.assign(degree, 0);
  ctrl_to_.assign(degree, 0);
  ctrl_from_.assign(degree, 0);

  // Progress thread only with MPI_THREAD_MULTIPLE on every rank (the application calls MPI too).
  int provided = MPI_THREAD_SINGLE, multiple = 0, everywhere = 0;
  MPI_Query_thread(&provided);
#ifndef HETLB_SMPI
  multiple = provided == MPI_THREAD_MULTIPLE ? 1 : 0;
#endif
  MPI_Allreduce(&multiple, &everywhere, 1, MPI_INT, MPI_MIN, hood.graph);
  threaded = o.progress_thread && everywhere == 1;
  if (o.progress_thread && !threaded)
    notice = "progress thread requested but MPI_THREAD_MULTIPLE is not provided on every rank; running in "
             "progress() mode (receiving and balancing happen in iteration_done()/progress() calls)";
}

DiffusionRuntime::~DiffusionRuntime() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  if (thread_.joinable()) thread_.join();
  // A run abandoned before its end (an exception in the application): cancel what is left.
  const auto cancel = [](MPI_Request& r) {
    if (r == MPI_REQUEST_NULL) return;
    MPI_Cancel(&r);
    MPI_Request_free(&r);
  };
  for (Outgoing& o : outgoing_) cancel(o.request);
  for (Incoming& i : incoming_) cancel(i.request);
  int done = 0;
  MPI_Finalized(&done);
  if (done) return;
  for (MPI_Comm* c : {&ctrl_, &data_, &term_, &stop_, &global_, &speeds_check_, &hood.graph})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

void DiffusionRuntime::add(std::uint64_t id, const void* payload) {
  if (started_) throw Error(HETLB_DIFFUSION_ERR_STATE, "add after start(): expected items added before start()");
  store.add(id, payload);
}

void DiffusionRuntime::set_cost(std::uint64_t id, double cost) {
  std::lock_guard lock(mutex_);
  const double change = store.set_cost(id, cost);
  if (!started_) return;
  state_->add_own(change);
  load_change_ += change;
}

void DiffusionRuntime::set_costs(const double* costs, std::size_t n) {
  std::lock_guard lock(mutex_);
  const double change = store.set_costs(costs, n);
  if (!started_) return;
  state_->add_own(change);
  load_change_ += change;
}

// Waiting granularity (idle, minimum periods, the thread's poll): a twentieth of the balancing period;
// with a time limit, no wait goes past it, and past it 10 ms at most (a wave's rounds, and so the end,
// move on at every poll).
double DiffusionRuntime::quantum() const {
  const double q = std::max(options.min_balancing_period / 20, 1e-5);
  if (!(options.time_limit > 0)) return q;
  return std::min(q, std::max(1e-2, t0_ + options.time_limit - now()));
}

void DiffusionRuntime::start() {
  if (started_) throw Error(HETLB_DIFFUSION_ERR_STATE, "start() called twice; expected one start per run");
  check_unique_ids(store.ids(), hood.graph);
  long long mine = static_cast<long long>(store.size());
  MPI_Allreduce(&mine, &total_items_, 1, MPI_LONG_LONG, MPI_SUM, hood.graph);
  initial_items_ = mine;
  // Asynchronous mode, fewer items than ranks: a rank that never holds an item never measures its speed.
  if (!options.bulk_synchronous && total_items_ > 0 && total_items_ < size_ && by_time() && given_speed_ == 0)
    throw Error(HETLB_DIFFUSION_ERR_ARG,
                fmt::format("{} items for {} ranks with measured speeds: expected at least one item per rank "
                            "(a rank's speed is measured on its items), given speeds, or balance = \"load\"",
                            total_items_, size_));
  const double load = store.total_cost();  // with unit costs the item count
  MPI_Allreduce(&load, &total_load_, 1, MPI_DOUBLE, MPI_SUM, hood.graph);
  initial_load_ = total_load_;
  average = total_load_ / size_;
  state_.emplace(load, static_cast<int>(hood.neighbours.size()), options.virtual_load,
                 diffusion::Estimates::accounted, diffusion::parse_balance(options.balance),
                 given_speed_ > 0 ? given_speed_ : 1.0);
  initial_target();
  shares_known_ = shares_measured_ = !(by_time() && given_speed_ == 0);
  if (options.bulk_synchronous && given_speed_ == 0) probe_compute_clock();
  tracker_.emplace(1, 1.0, options.iterations, options.tolerance);  // on load / target
  MPI_Barrier(hood.graph);
  t0_ = now();
  next_balance_ = t0_;
  next_wave_ = t0_ + options.min_balancing_period;
  started_ = true;
  if (options.bulk_synchronous && options.balancer != "diffusion") {  // global steps (global_step.cpp)
    MPI_Comm_dup(hood.graph, &global_);
    trigger_.emplace(options.global_min_interval, options.speed_hysteresis);
    bsp_start();
  }
  begin_iteration();
  // Asynchronous mode, no item on any rank: nothing to balance, every rank has converged at start.
  if (!options.bulk_synchronous && total_items_ == 0 && options.end_on_convergence) {
    tracker_->record(0, relative(0), 0);
    tracker_->extend(0, options.iterations - 1);
    converged_at_ = 0;
    finish();
  }
  if (options.bulk_synchronous) {
    sync_interval_ = options.sync_interval > 0 ? options.sync_interval : 1;
    stall_.start(t0_);
    next_agreement_ = sync_interval_;
    bsp_start_wave();
  }
  if (threaded) thread_ = std::thread([this] { thread_loop(); });
}

void DiffusionRuntime::thread_loop() {
  std::unique_lock lock(mutex_);
  while (!quit_ && !finished_) {
    poll();
    lock.unlock();
    pause_for(quantum());
    lock.lock();
  }
}

void DiffusionRuntime::progress() {
  if (!started_ || threaded) return;
  const OwnCalls own;
  std::unique_lock lock(mutex_);
  if (!finished_) poll();
}

// Waits until `date` (for_data: until received items or the end), receiving and balancing meanwhile
// in progress mode.
void DiffusionRuntime::wait_until(double date, std::unique_lock<std::mutex>& lock, bool for_data) {
  for (;;) {
    if (!threaded && !finished_) poll();
    if (finished_ || (for_data ? !idle_for_load() : now() >= date)) return;
    const double q = for_data ? quantum() : std::min(quantum(), date - now());
    if (threaded) {
      data_cv_.wait_for(lock, std::chrono::duration<double>(q));
    } else {
      lock.unlock();
      pause_for(q);
      lock.lock();
    }
  }
}

// Algorithm 2's loop head: received items into the real load, what is owed sent, then the next
// iteration's items are fixed. Each message carries the amount released, as in the simulator; items
// move whole, chosen for the amount by select_items (item_selection.hpp), so what they fall short of is
// carried per neighbour (a message may carry an amount and no item) and a rank's items' cost differs
// from its real load by less than its degree times the largest cost (its degree with unit costs).
void DiffusionRuntime::begin_iteration() {
  if (options.bulk_synchronous) {  // items move only at the agreed hand-overs (bulk_synchronous.cpp)
    iteration_items_ = store.size();
    iteration_load_ = state_->real();
    iteration_start_ = now();
    blocked_at_start_ = blocked_time().seconds;
    return;
  }
  take_in();
  for (std::size_t p = 0; p < hood.neighbours.size(); ++p) {
    const double a = state_->release(static_cast<int>(p));
    if (!(a > 0)) continue;
    carry_[p] += a;
    std::vector<char> bytes = pool_.take(sizeof(double));
    bytes.resize(sizeof(double));
    std::memcpy(bytes.data(), &a, sizeof(double));
    const ItemStore::Sent sent = store.pack_for(hood.neighbours[p], carry_[p], bytes, &pool_);  // the application may choose
    carry_[p] -= sent.cost;
    moved_ += sent.cost;
    ++data_messages_;
    ++data_to_[p];
    send(data_, static_cast<int>(p), std::move(bytes));
  }
  iteration_items_ = store.size();
  iteration_load_ = state_->real();  // the simulator's load (whole items differ by the carried fractions)
  iteration_start_ = now();
}

void DiffusionRuntime::take_in() {
  state_->take_in();
  if (!inbox_.empty()) store.unpack(inbox_.data(), inbox_.size());
  inbox_.clear();
}

void DiffusionRuntime::record_iteration(double compute_seconds) {
  // Bulk-synchronous: every call is an iteration (a rank without items is one not in the band);
  // asynchronous: iterations with items, as the simulator counts them.
  // A rank holding load but no item (fewer items than ranks) counts too, without a speed sample.
  if (iteration_items_ == 0 && !options.bulk_synchronous && !(iteration_load_ > 0)) return;
  ++comp_iterations_;
  const double t = now();
  last_compute_seconds_ = compute_seconds >= 0 ? compute_seconds : untimed_seconds(t);
  last_own_seconds_ = own_compute_seconds(t);
  if (given_speed_ == 0 && (iteration_items_ > 0 || options.bulk_synchronous)) {
    // Work per second: the cost of the items computed (their count with unit costs).
    estimator_.record(store.total_cost(), last_compute_seconds_);
    if (by_time() && estimator_.known()) state_->set_speed(estimator_.speed());
  }
  const bool was = tracker_->converged(0);
  // Measured speeds: no convergence before every rank's share is known (a balanced count of items is
  // not a balanced time while the speeds are unknown).
  tracker_->record(0, shares_known_ ? relative(iteration_load_) : std::numeric_limits<double>::infinity(), t - t0_);
  if (!tracker_->converged(0)) {
    converged_at_ = -1;
    hold_ = false;
  } else if (!was) {
    converged_at_ = t - t0_;
  }
}

// A rank holding no item may still hold load (amounts released to it, smaller than an item: fewer items
// than ranks): it computes nothing, but its iterations count toward convergence, so it does not wait.
// Nothing comes when no rank holds anything, and nothing more once some rank is in stop().
bool DiffusionRuntime::idle_for_load() const {
  return store.size() == 0 && inbox_.empty() && !(state_->real() + state_->pending() > 0) && total_items_ > 0 &&
         !others_stopping_;
}

double DiffusionRuntime::speed() const { return given_speed_ > 0 ? given_speed_ : estimator_.speed(); }
double DiffusionRuntime::speed_margin() const {
  if (given_speed_ > 0) return std::min(options.speed_hysteresis, options.speed_margin_min);
  if (sum_margin_ < 0) return options.speed_hysteresis;
  return std::min(options.speed_hysteresis, estimator_.margin() + sum_margin_);
}

bool DiffusionRuntime::iteration_done(double compute_seconds) {
  if (!started_) throw Error(HETLB_DIFFUSION_ERR_STATE, "iteration_done() before start()");
  const OwnCalls own;  // the runtime's MPI calls are not the program's waits
  std::unique_lock lock(mutex_);
  if (finished_) {
    take_in();
    return false;
  }
  record_iteration(compute_seconds);
  if (options.bulk_synchronous) return bsp_iteration_done(lock);
  if (options.min_computing_period > 0) wait_until(iteration_start_ + options.min_computing_period, lock, false);
  if (!threaded && !finished_) poll();
  // Thread mode: the computing activity also moves a termination wave on (the progress thread
  // sleeps between polls; a wave's rounds would otherwise wait for its wake-ups on a loaded machine).
  if (threaded && !finished_ && wave_.active()) termination();
  if (options.wait_for_load && !finished_ && idle_for_load()) {
    const double from = now();
    wait_until(0, lock, true);
    idle_ += (finished_ ? std::min(now(), finish_date_) : now()) - from;
  }
  if (finished_) {
    take_in();
    return false;
  }
  begin_iteration();
  return true;
}

}  // namespace hetlb::mpi::detail
