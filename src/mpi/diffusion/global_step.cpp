// Global steps inside the bulk-synchronous diffusion runtime (docs/runtime.md, "Global steps"). At the
// first call with measured speeds, and at an agreement call whose agreed sums say some rank is out of its
// band (once every rank has measured its speed), the
// ranks gather every rank's (work held, speed, smallest item cost, computing seconds of the last
// iteration, the latency of the last gather, the cost per unit of work of the last step as this
// rank measured them, and its speed's margin) with one all-gather (contributions_, Bruck's); every rank then computes the same plan
// (balance::plan_global_step: shares from the exact planner's divisible optimum, transfers surplus to
// deficit, any to any) and the same decision (balancer global: whenever the plan improves the
// iteration time; hybrid: balance::HybridTrigger, gain against cost). A step:
//  1. drains the control messages of diffusion (each rank tells each neighbour how many it sent, and
//     receives them all), so that no report of the state before the step reaches the state after it;
//  2. moves the items: one message per transfer on its own communicator, packed and unpacked by the
//     item store (the program's pack/unpack callbacks where it keeps its items);
//  3. restarts diffusion's state on the items held (nothing owed, no estimate of a neighbour).
// Every item is held by exactly one rank before and after; nothing is in flight when the call returns.
#include "global_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <list>
#include <string>

#include <fmt/format.h>

#include "hetlb/balance/balancer.hpp"
#include "clock.hpp"
#include "handover_rule.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

namespace {
constexpr int kItemsTag = 1;   // a transfer's items on global_
constexpr int kCountsTag = 2;  // control messages sent, per neighbour, on global_
constexpr int kGatherTag = 3;  // the contributions' all-gather on global_

// What each rank contributes to the gather.
struct Contribution {
  double work, speed, smallest_cost, compute_seconds, gather_seconds, seconds_per_work, margin;
};
constexpr std::size_t kContributionDoubles = 7;
static_assert(sizeof(Contribution) == kContributionDoubles * sizeof(double));
}  // namespace

void check_balancer(const DiffusionOptions& o) {
  if (balance::parse_balancer(o.balancer, "balancer") == balance::Balancer::global && !o.bulk_synchronous)
    throw hetlb::Error("balancer global without bulk_synchronous: a global step needs calls agreed by every rank; "
                       "expected bulk_synchronous = true (or the balancer diffusion or hybrid)");
  if (o.total_iterations < 0)
    throw hetlb::Error(fmt::format("total_iterations = {}: expected 0 (unknown) or a number of calls",
                                   o.total_iterations));
  if (o.global_min_interval < 1)
    throw hetlb::Error(fmt::format("global_min_interval = {}: expected at least 1 call", o.global_min_interval));
}

void DiffusionRuntime::set_balancer(const std::string& balancer, long total_iterations) {
  std::string reason;
  if (started_) {
    reason = "set_balancer after start(): expected it before start()";
  } else {
    DiffusionOptions o = options;
    if (!balancer.empty()) o.balancer = balancer;
    o.total_iterations = total_iterations;
    try {
      check_balancer(o);
      options = o;
    } catch (const std::exception& e) {
      reason = e.what();
    }
  }
  agree(reason.empty() ? HETLB_DIFFUSION_SUCCESS : (started_ ? HETLB_DIFFUSION_ERR_STATE : HETLB_DIFFUSION_ERR_ARG),
        reason, hood.graph);
  // The same on every rank: rank 0's values, compared.
  int n = static_cast<int>(options.balancer.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, hood.graph);
  std::string first(static_cast<std::size_t>(n), '\0');
  if (rank_ == 0) first = options.balancer;
  MPI_Bcast(first.data(), n, MPI_CHAR, 0, hood.graph);
  long total = options.total_iterations;
  MPI_Bcast(&total, 1, MPI_LONG, 0, hood.graph);
  reason.clear();
  if (first != options.balancer || total != options.total_iterations)
    reason = fmt::format("set_balancer differs between ranks: \"{}\", {} calls on rank 0, \"{}\", {} calls on rank {}; "
                         "expected the same on every rank",
                         first, total, options.balancer, options.total_iterations, rank_);
  agree(reason.empty() ? HETLB_DIFFUSION_SUCCESS : HETLB_DIFFUSION_ERR_ARG, reason, hood.graph);
}

// Every control message the neighbours sent before this point received (and dropped): each rank tells
// each neighbour how many it sent there. No rank sends one between its count and its reset (the mutex
// is held and nothing polls), and messages from one rank arrive in order, so exactly the older ones
// are taken.
void DiffusionRuntime::drain_control() {
  const std::size_t degree = hood.neighbours.size();
  std::vector<long long> sent(ctrl_to_.begin(), ctrl_to_.end()), told(degree, 0);
  std::vector<MPI_Request> requests(2 * degree, MPI_REQUEST_NULL);
  for (std::size_t p = 0; p < degree; ++p) {
    MPI_Irecv(&told[p], 1, MPI_LONG_LONG, hood.neighbours[p], kCountsTag, global_, &requests[p]);
    MPI_Isend(&sent[p], 1, MPI_LONG_LONG, hood.neighbours[p], kCountsTag, global_, &requests[degree + p]);
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  for (std::size_t p = 0; p < degree; ++p)
    while (ctrl_from_[p] < told[p]) receive_control(hood.neighbours[p], true);
  ctrl_fifo_.clear();
}

void DiffusionRuntime::reset_diffusion_state() {
  const double s = state_->speed();
  state_.emplace(store.total_cost(), static_cast<int>(hood.neighbours.size()), options.virtual_load,
                 diffusion::Estimates::accounted, diffusion::parse_balance(options.balance), s);
  std::fill(carry_.begin(), carry_.end(), 0.0);
  std::fill(sent_any_.begin(), sent_any_.end(), 0);
  std::fill(last_sent_.begin(), last_sent_.end(), diffusion::Report{});
}

bool DiffusionRuntime::bsp_global_step(std::unique_lock<std::mutex>& lock) {
  if (global_ == MPI_COMM_NULL) return false;
  const bool hybrid = options.balancer == "hybrid";
  // Every condition is the same on every rank: the agreed sums, the options, the call count.
  if (hybrid && store.chooses()) return false;  // the program picks items per neighbour: diffusion alone
  // The first call with measured speeds: every rank has its first sample now, and the gather carries it
  // (the agreed sums carry it one agreement later), so the first step comes after one iteration, as a
  // program's own repartition would. Then from the agreed sums, when some rank is out of its band: a
  // step on the first samples beats diffusion's hops, and the trigger takes another when later samples
  // show a gain worth its cost.
  const bool first_samples = calls_ == 1 && by_time() && !shares_measured_;
  // After a step on provisional speeds, the next call's gather carries every rank's own sample, two
  // calls before the agreed sums would show them.
  const bool after_provisional = gather_soon_ && calls_ >= next_gather_;
  if (!first_samples && !after_provisional &&
      (!(wave_out_[3] > 0) || !shares_measured_ || calls_ < next_gather_))
    return false;
  gather_soon_ = false;

  Contribution mine{store.total_cost(),
                    by_time() ? speed() : 1.0,
                    store.size() > 0 ? store.smallest_cost() : std::numeric_limits<double>::infinity(),
                    last_compute_seconds_,
                    gather_seconds_,
                    move_seconds_per_work(),
                    speed_margin()};
  // Bruck's all-gather (contributions_, all_gather.hpp): log2(n) rounds, each contribution received once.
  std::vector<Contribution> all(static_cast<std::size_t>(size_));
  std::vector<double> gathered(all.size() * kContributionDoubles);
  const double gather_start = now();
  double values[kContributionDoubles];
  std::memcpy(values, &mine, sizeof mine);
  contributions_.start(values);
  while (!contributions_.test(gathered.data())) {
    if (!threaded) poll();
    bsp_check_stall(gather_start, [&] {
      return fmt::format("rank(s) {} in the global step's gather (the other ranks made {})",
                         ranks_text(contributions_.waiting_for()), calls_made_text());
    });
    wait_a_little(lock, gather_start);
  }
  std::memcpy(all.data(), gathered.data(), gathered.size() * sizeof(double));
  gather_seconds_ = now() - gather_start;

  std::vector<double> work, speeds;
  double quantum = std::numeric_limits<double>::infinity();
  balance::TriggerInputs in;
  double gather = 0;  // the last gather's latency
  // A rank without a speed (no sample yet: it computed nothing) gets the mean of the others'.
  double known_sum = 0, known = 0;
  for (const Contribution& c : all)
    if (c.speed > 0 && std::isfinite(c.speed)) known_sum += c.speed, ++known;
  if (!(known > 0)) return false;  // the same on every rank: nobody has measured anything yet
  for (const Contribution& c : all) {
    work.push_back(c.work);
    speeds.push_back(c.speed > 0 && std::isfinite(c.speed) ? c.speed : known_sum / known);
    quantum = std::min(quantum, c.smallest_cost);
    in.iteration_seconds = std::max(in.iteration_seconds, c.compute_seconds);
    // The rank that reached the gather last waited for the collective alone; the others for it too.
    gather = &c == all.data() ? c.gather_seconds : std::min(gather, c.gather_seconds);
    in.seconds_per_work = std::max(in.seconds_per_work, c.seconds_per_work);
    in.margin = std::max(in.margin, c.margin);  // no rank's speed is known better than its resolution
  }
  if (!std::isfinite(quantum)) quantum = 1.0;
  // The step's synchronisation: one of the gather's rounds (the gather itself is paid, step or not).
  in.collective_seconds = balance::one_round_seconds(gather, all.size());
  in.provisional = known < static_cast<double>(all.size());  // some rank's speed is the others' mean
  in.iterations_left =
      balance::iterations_left(static_cast<long>(calls_), options.total_iterations,
                               options.end_on_convergence ? options.iterations : 0);
  const balance::GlobalStep plan = balance::plan_global_step(work, speeds, quantum);
  // The core's rules, as the simulator takes them (hybrid_trigger.hpp): global whenever the plan shortens
  // the iteration, hybrid when its predicted gain exceeds its cost; both at most every min interval.
  const long call = static_cast<long>(calls_);
  const balance::TriggerDecision d = hybrid ? trigger_->decide(call, plan, in) : trigger_->decide_global(call, plan, in);
  step_declined_ = !d.step;
  if (!d.step) {
    // Back off: the next gather later, up to the longest agreement interval; not when the gather is
    // cheap (a hundredth of an iteration at most: agreement_cheap), so that a change is considered at
    // the next agreement that sees a rank out of its band.
    gather_gap_ = agreement_cheap(gather, in.iteration_seconds)
                      ? 1
                      : std::min(2 * gather_gap_, static_cast<long long>(std::max(options.sync_interval_max,
                                                                                  options.global_min_interval)));
    next_gather_ = calls_ + gather_gap_;
    return false;
  }
  gather_gap_ = 1;
  // After a step on provisional speeds the next gather comes at the next call, when every rank has
  // measured itself (hybrid_trigger.hpp).
  gather_soon_ = trigger_->due(call + 1);
  next_gather_ = calls_ + (gather_soon_ ? 1 : options.global_min_interval);

  const double step_start = now();
  const std::uint64_t items = move_by_plan(plan);
  const double seconds = now() - step_start;
  measured_move(balance::seconds_per_work(seconds, in.collective_seconds, plan.busiest, move_seconds_per_work()));
  global_steps_.push_back({calls_, step_start - t0_, d.gain, d.cost, plan.moved, items});
  return true;
}

// This rank's part of a step every rank takes at the same point: diffusion's control messages drained,
// the transfers of `plan` sent and received (one message each, possibly no item, all sent before any
// is received), diffusion's state restarted on the items held. Returns the items this rank sent.
std::uint64_t DiffusionRuntime::move_by_plan(const balance::GlobalStep& plan) {
  drain_control();
  std::list<Outgoing> sends;
  std::uint64_t items = 0;
  for (const balance::Transfer& t : plan.transfers) {
    if (t.from != static_cast<std::size_t>(rank_)) continue;
    Outgoing& o = sends.emplace_back();
    const ItemStore::Sent sent = store.pack_for(static_cast<int>(t.to), t.work, o.bytes, &pool_);
    items += sent.items;
    moved_ += sent.cost;
    MPI_Isend(o.bytes.data(), static_cast<int>(o.bytes.size()), MPI_BYTE, static_cast<int>(t.to), kItemsTag,
              global_, &o.request);
  }
  for (const balance::Transfer& t : plan.transfers) {
    if (t.to != static_cast<std::size_t>(rank_)) continue;
    MPI_Status st;
    MPI_Probe(static_cast<int>(t.from), kItemsTag, global_, &st);
    int count = 0;
    MPI_Get_count(&st, MPI_BYTE, &count);
    std::vector<char> bytes = pool_.take(static_cast<std::size_t>(count));
    bytes.resize(static_cast<std::size_t>(count));
    MPI_Recv(bytes.data(), count, MPI_BYTE, static_cast<int>(t.from), kItemsTag, global_, MPI_STATUS_IGNORE);
    if (count > 0) store.unpack(bytes.data(), bytes.size());
    pool_.give(std::move(bytes));
  }
  for (Outgoing& o : sends) {
    MPI_Wait(&o.request, MPI_STATUS_IGNORE);
    pool_.give(std::move(o.bytes));
  }
  reset_diffusion_state();
  return items;
}

// Inside start(), before the first iteration (balancers global and hybrid): the cost of moving a unit
// of work probed on each rank holding items (probe_move_cost: local; the trigger's and the hand-overs'
// cost until a step measures it); then, when asked for (start_step, false by default), the start step
// (balance::start_step_worth): every rank's work held and smallest item cost (one all-gather), the
// plan by the given speeds or equal ones (nothing is measured yet), taken when it shortens the iteration
// by more than the margin and, with measured speeds, some rank holds no work. It is not weighed (nothing
// tells yet what computing costs), hence not by default: it gains at most the first iteration and can
// cost a move that no later step would make. Recorded as the step of call 0, with no predicted gain or
// cost; the trigger counts it as provisional, so the first step on measured speeds may come at call 1.
void DiffusionRuntime::bsp_start() {
  if (global_ == MPI_COMM_NULL) return;
  contributions_.init(global_, kGatherTag, static_cast<int>(kContributionDoubles));
  probe_move_cost();
  if (!options.start_step || (options.balancer == "hybrid" && store.chooses())) return;
  const bool measured = by_time() && given_speed_ == 0;
  // The gather of the steps (all_gather.hpp), three of its values used: work, speed, smallest cost.
  const double mine[kContributionDoubles] = {
      store.total_cost(), measured ? 1.0 : (by_time() ? given_speed_ : 1.0),
      store.size() > 0 ? store.smallest_cost() : std::numeric_limits<double>::infinity(), 0.0, 0.0, 0.0, 0.0};
  std::vector<double> all(kContributionDoubles * static_cast<std::size_t>(size_));
  const double gather_start = now();
  contributions_.start(mine);
  while (!contributions_.test(all.data())) pause_for(wait_pause(now() - gather_start));  // inside start()
  gather_seconds_ = now() - gather_start;
  std::vector<double> work, speeds;
  double quantum = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < static_cast<std::size_t>(size_); ++r) {
    work.push_back(all[kContributionDoubles * r]);
    speeds.push_back(all[kContributionDoubles * r + 1]);
    quantum = std::min(quantum, all[kContributionDoubles * r + 2]);
  }
  if (!std::isfinite(quantum)) return;  // no item anywhere
  const balance::GlobalStep plan = balance::plan_global_step(work, speeds, quantum);
  if (!balance::start_step_worth(work, plan, options.speed_hysteresis, measured)) return;
  const double step_start = now();
  const std::uint64_t items = move_by_plan(plan);
  // Its measured cost per unit of work moved is the first step's predicted cost (hybrid_trigger.hpp).
  measured_move(balance::seconds_per_work(now() - step_start, balance::one_round_seconds(gather_seconds_, static_cast<std::size_t>(size_)),
                                        plan.busiest, move_seconds_per_work()));
  trigger_->taken(0, true);
  global_steps_.push_back({0, step_start - t0_, 0.0, 0.0, plan.moved, items});
}

}  // namespace hetlb::mpi::detail
