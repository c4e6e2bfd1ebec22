// Bulk-synchronous mode of the diffusion runtime (docs/runtime.md, "End of the run"): the iteration
// count is the clock. At agreement calls of iteration_done() (every call while something is to be done,
// backing off to every sync_interval_max once calm; or every `sync_interval` as set) each rank
// contributes to a non-blocking sum over all ranks (tree_sum.hpp: direct up to 8 ranks, else a tree) of
// (ranks not converged, ranks with whole items owed to a neighbour, ranks past the time limit, ranks out
// of their band, ranks owing something: handover_rule.hpp); every
// rank applies that result at the next agreement call, whose date every rank computes from the same
// results (next_sync_interval, handover_rule.hpp; the back-off only while no rank finds the sums cheap):
//  - end: every rank converged (with end_on_convergence), or one past the time limit: every rank
//    returns false from the same call;
//  - hand-over: some rank owes whole items, or some rank is out of its band while some rank owes a part
//    of an item (handover_agreed): every rank exchanges with each neighbour the count of
//    items it owes it (netted per edge), then one data message (the net items, possibly none), inside
//    the call. Items therefore move only
//    inside an agreement call, and between two calls every item is held by exactly one rank.
// Balancing decisions (control messages, Algorithm 3) go on asynchronously between agreement calls.
// The only waits: the sum's completion and the neighbours' hand-over messages of the same call, i.e.
// until the other ranks reach that call, which a program with a collective every step waits anyway.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "clock.hpp"
#include "handover_rule.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

namespace {
constexpr int kDataTag = 7;        // data messages on data_ (activities.cpp)
constexpr int kCountTag = 11;  // hand-over counts on data_
}

void DiffusionRuntime::bsp_start_wave() {
  // Converged, and still in the band after this call's hand-over (nothing moves until the result).
  wave_in_[0] = tracker_->converged(0) && tracker_->in_band(relative(state_->real())) ? 0 : 1;
  const HandoverVote vote = handover_vote(*state_, tracker_->in_band(relative(state_->real())), carry_, store.size(),
                                          store.smallest_cost(), within_margin());
  wave_in_[1] = vote.owes_whole_item ? 1 : 0;
  wave_in_[2] = options.time_limit > 0 && now() - t0_ >= options.time_limit ? 1 : 0;
  wave_in_[3] = vote.out_of_band ? 1 : 0;
  wave_in_[4] = vote.owes_part ? 1 : 0;
  wave_in_[8] = sum_cheap_ ? 1 : 0;
  wave_in_[10] = vote.owes_whole_item && giving_worth() ? 1 : 0;
  contribute_speed();
  wave_ready_ = false;
  const double sending = now();
  wave_.start(wave_in_);
  wave_start_seconds_ = now() - sending;
  previous_wave_call_ = wave_call_;
  wave_call_ = calls_;
  ++waves_started_;
  last_agreement_end_ = now();
}

// The ranks of the neighbour slots whose request (of `requests`, one per slot) has not completed.
std::string DiffusionRuntime::pending_neighbours(const std::vector<MPI_Request>& requests) const {
  std::vector<int> ranks;
  for (std::size_t p = 0; p < hood.neighbours.size() && p < requests.size(); ++p) {
    int done = 1;
    if (requests[p] != MPI_REQUEST_NULL) MPI_Request_get_status(requests[p], &done, MPI_STATUS_IGNORE);
    if (!done) ranks.push_back(hood.neighbours[p]);
  }
  return ranks_text(ranks);
}

std::string DiffusionRuntime::ranks_text(const std::vector<int>& ranks) {
  return ranks.empty() ? std::string("?") : fmt::format("{}", fmt::join(ranks, ", "));
}

// A wait for the other ranks inside a call, begun at `since`, that has lasted past the stall limit
// (stall_watch.hpp): the job cannot go on, since the rank out of step waits in the program's own MPI
// call. One line on stderr, and every rank ends (MPI_Abort) instead of hanging. `slack` lengthens the
// limit for waits that are only consequences of another's (so that the line naming the rank out of
// step comes first).
void DiffusionRuntime::bsp_check_stall(double since, const std::function<std::string()>& waiting_for,
                                       const std::function<double()>& slack) {
  const double t = now();
  const bool past = options.time_limit > 0 && t - t0_ >= options.time_limit;
  const double limit = stall_.limit(options.stall_timeout, past);
  if (t - since <= limit || (slack && t - since <= limit + slack())) return;
  std::fprintf(stderr,
               "hetlb: rank %d: bulk-synchronous iteration_done() call %lld waited %.1f s for %s%s; every rank must "
               "call iteration_done() the same number of times (a rank skipped or added a call, or stopped "
               "calling it): aborting\n",
               rank_, calls_, t - since, waiting_for().c_str(), past ? ", past the time limit" : "");
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// Which calls the ranks that have not reached this one have made: at least the last agreement's.
std::string DiffusionRuntime::calls_made_text() const {
  return wave_call_ + 1 == calls_ ? fmt::format("{} calls", wave_call_)
                                  : fmt::format("{} to {} calls", wave_call_, calls_ - 1);
}

// A short pause while waiting for other ranks since `since` (the machine may have fewer cores than
// ranks; clock.hpp's wait_pause).
void DiffusionRuntime::wait_a_little(std::unique_lock<std::mutex>& lock, double since) {
  lock.unlock();
  pause_for(wait_pause(now() - since));
  lock.lock();
}

void DiffusionRuntime::bsp_complete_wave(std::unique_lock<std::mutex>& lock) {
  const double since = now();
  while (!wave_ready_) {
    if (!threaded) poll();  // receiving and balancing go on; poll() moves the sum on
    if (!wave_ready_ && wave_.active() && wave_.test(wave_out_)) wave_ready_ = true;
    if (wave_ready_) break;
    // Waiting for the parent's result is mostly a consequence of a wait further up: slack.
    bsp_check_stall(
        since,
        [&] {
          return fmt::format("rank(s) {} to pass on the agreement sum of call {} (every rank made at least {} calls)",
                             ranks_text(wave_.waiting_for()), wave_call_, previous_wave_call_);
        },
        [&] {
          const std::vector<int> late = wave_.waiting_for();
          return !late.empty() && late.front() < rank_ ? 0.5 : 0.0;
        });
    wait_a_little(lock, since);
  }
  wave_ready_ = false;
}

// Hybrid, in a run the program ends (end_on_convergence false, as real programs run their steps) and
// where global steps are taken (not with ItemCallbacks::choose: diffusion alone): this rank's load is
// within the margin of its share (balance::handover_beyond_margin; speed_margin, the speed estimate's
// resolution), an excess that may be its noise. A run that ends on convergence needs diffusion to bring every rank
// into its band, within the margin too.
bool DiffusionRuntime::within_margin() const {
  return options.balancer == "hybrid" && global_ != MPI_COMM_NULL && !store.chooses() && !options.end_on_convergence &&
         !balance::handover_beyond_margin(relative(store.total_cost()), speed_margin());
}

// Hybrid: this rank gives work only when computing it over the iterations left could cost more than
// moving it (balance::handover_worth, with the cost probed in start() or measured by the last global
// step), and not while within the margin of its share (within_margin). The other balancers give what
// they owe.
bool DiffusionRuntime::giving_worth() const {
  return options.balancer != "hybrid" ||
         (!within_margin() &&
          balance::handover_worth(balance::iterations_left(static_cast<long>(calls_), options.total_iterations,
                                                          options.end_on_convergence ? options.iterations : 0),
                                  by_time() ? speed() : 0.0, move_seconds_per_work(), speed_margin()));
}

// A hand-over, on every rank at the same call. First each rank tells each neighbour the cost of the
// items it owes it (those select_items would send for the amount carried, item_selection.hpp; a count
// with unit costs), and the two of an edge are netted: only the side owing more sends, items for the
// difference (items never cross on an edge, so block-partitioned data stays in blocks). Then each
// neighbour gets exactly one data message (the amount released, then the items, possibly none), so a
// receiver knows what to wait for; messages between two ranks do not overtake each other.
void DiffusionRuntime::handover(std::unique_lock<std::mutex>& lock) {
  const std::size_t degree = hood.neighbours.size();
  std::vector<double> amount(degree, 0.0), owe(degree, 0.0), owed_to_me(degree, 0.0);
  std::vector<MPI_Request> count_requests(2 * degree, MPI_REQUEST_NULL);
  std::vector<char> reserved(store.size(), 0);  // items owed to a neighbour already
  for (std::size_t p = 0; p < degree; ++p) {
    const double a = state_->release(static_cast<int>(p));
    amount[p] = a > 0 ? a : 0.0;
    carry_[p] += amount[p];
    owe[p] = store.reserve(carry_[p], reserved);
    MPI_Irecv(&owed_to_me[p], 1, MPI_DOUBLE, hood.neighbours[p], kCountTag, data_, &count_requests[p]);
    MPI_Isend(&owe[p], 1, MPI_DOUBLE, hood.neighbours[p], kCountTag, data_, &count_requests[degree + p]);
  }
  const double since = now();
  for (int done = 0;;) {
    MPI_Testall(static_cast<int>(count_requests.size()), count_requests.data(), &done, MPI_STATUSES_IGNORE);
    if (done) break;
    if (!threaded) poll();
    bsp_check_stall(since, [&] {
      return fmt::format("rank(s) {} in the hand-over (they made {} and not call {})",
                         pending_neighbours(count_requests), calls_made_text(), calls_);
    });
    wait_a_little(lock, since);
  }
  // Hybrid: this rank gives work only when it is worth its move (giving_worth); what it keeps is still owed.
  const bool worth = giving_worth();
  for (std::size_t p = 0; p < degree; ++p) {
    const double due = std::max(0.0, owe[p] - owed_to_me[p]);
    const double give = worth ? due : 0.0;
    carry_[p] -= owe[p];  // netted: the neighbour's amount comes off what this rank gives
    carry_[p] += due - give;
    std::vector<char> bytes = pool_.take(sizeof(double));
    bytes.resize(sizeof(double));
    std::memcpy(bytes.data(), &amount[p], sizeof(double));
    const ItemStore::Sent sent = store.pack_for(hood.neighbours[p], give, bytes, &pool_);  // the application may choose
    carry_[p] += give - sent.cost;  // not met (refused by choose(), or items of other costs): still owed
    moved_ += sent.cost;
    ++data_messages_;
    ++data_to_[p];
    send(data_, static_cast<int>(p), std::move(bytes));
  }
  std::vector<char> got(degree, 0);
  const double data_since = now();
  for (std::size_t left = degree; left > 0;) {
    bool any = false;
    for (std::size_t p = 0; p < degree; ++p) {
      if (got[p]) continue;
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(hood.neighbours[p], kDataTag, data_, &flag, &st);
      if (!flag) continue;
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      Incoming in;
      in.slot = static_cast<int>(p);
      in.bytes = pool_.take(static_cast<std::size_t>(count));
      in.bytes.resize(static_cast<std::size_t>(count));
      MPI_Recv(in.bytes.data(), count, MPI_BYTE, hood.neighbours[p], kDataTag, data_, MPI_STATUS_IGNORE);
      data_arrived(in);
      got[p] = 1;
      --left;
      any = true;
    }
    if (left == 0) break;
    if (!threaded) poll();
    if (!any) {
      bsp_check_stall(
          data_since,
          [&] {
            std::vector<int> late;
            for (std::size_t p = 0; p < degree; ++p)
              if (!got[p]) late.push_back(hood.neighbours[p]);
            return fmt::format("rank(s) {} in the hand-over, for their items (they wait themselves)", ranks_text(late));
          },
          [] { return 0.5; });
      wait_a_little(lock, data_since);
    }
  }
  take_in();
  reap();
  ++handovers_;
}

bool DiffusionRuntime::bsp_iteration_done(std::unique_lock<std::mutex>& lock) {
  ++calls_;
  stall_.call(now());
  if (!threaded) poll();
  if (calls_ >= next_agreement_) {
    const double arrived = now();
    bsp_complete_wave(lock);
    // The span of one call since the last agreement call: the program's own time, the sum's wait aside.
    // The sum's cost: the wait to complete it, and its sends at the start, timed, twice (its receives,
    // as many, are made inside the program's MPI calls: a direct sum on 16 ranks sends and receives 15
    // messages per rank, which at an agreement per call took 1.1-1.6x the time of iterations of 0.7 ms
    // on 2 cores, measured with direct sums up to 32 ranks; tree_sum.hpp keeps the tree beyond 8).
    const long long calls_between = std::max(1LL, calls_ - wave_call_);
    sum_cheap_ = agreement_cheap(now() - arrived + 2 * wave_start_seconds_,
                                 (arrived - last_agreement_end_) / static_cast<double>(calls_between));
    update_target();
    bsp_check_equal_speeds(lock);  // equal_speeds_check.cpp: before the run may end as balanced
    const bool converged_everywhere = wave_out_[0] == 0 && options.end_on_convergence;
    if (converged_everywhere || wave_out_[2] > 0) {
      finish();
      take_in();
      return false;
    }
    const bool stepped = bsp_global_step(lock);  // global_step.cpp: none with the balancer diffusion
    // Hybrid: whole items are owed but no rank finds one worth its move (handover_declined): a hand-over
    // would move nothing, and the agreements back off as when calm, until a step or a change of speed
    // makes a move worth it again.
    const bool declined = !stepped && handover_declined(wave_out_[1], wave_out_[10]);
    const bool hand_over = !stepped && !declined && handover_agreed(wave_out_[1], wave_out_[3], wave_out_[4]);
    if (hand_over) handover(lock);
    if (stepped || hand_over) step_declined_ = false;
    // Calm: nothing moved and every rank in its band. Parts of items owed while every rank is in band
    // move nothing (handover_agreed) and do not keep the agreements at every call: each costs a sum
    // over all ranks (on a grid, tens of ms) and they come back to every call once whole items are owed.
    // Sums that some rank found cheap are not backed off: every call stays an agreement, so a change is
    // seen at the next call (the back-off is for sums that cost, as on a grid).
    // Declined moves count as calm even while some rank's share is unknown: a rank holding nothing measures
    // no speed until items reach it, which declined moves never do. So do ranks out of their band that owe
    // nothing once the last consideration declined a step (idle_out_of_band): neither diffusion nor a step
    // acts on their excess (whole items spread evenly among neighbours, a gain below the step's cost), and
    // an agreement at every call would only sum it again.
    const bool calm = agreement_calm(stepped, hand_over, wave_out_[3], shares_known_, declined, step_declined_,
                                     wave_out_[1], wave_out_[4]);
    const bool sums_cheap = wave_out_[8] > 0;
    sync_interval_ = next_sync_interval(sync_interval_, options.sync_interval, options.sync_interval_max,
                                        calm && !sums_cheap);
    next_agreement_ = calls_ + sync_interval_;
    begin_iteration();
    bsp_start_wave();
    return true;
  }
  begin_iteration();
  return true;
}

// stop() in bulk-synchronous mode: every rank calls it after the same number of iteration_done()
// calls, so every rank has the same sum in progress; it is completed (its result dropped) and the
// run closes. Ranks that disagree on the count (a misuse) still close without hanging: the ones behind
// start the missing sums.
void DiffusionRuntime::bsp_stop(std::unique_lock<std::mutex>& lock) {
  long long most = 0;
  MPI_Allreduce(&waves_started_, &most, 1, MPI_LONG_LONG, MPI_MAX, stop_);
  if (!finished_) {
    for (;;) {
      if (wave_.active() || wave_ready_) bsp_complete_wave(lock);
      if (waves_started_ >= most) break;
      bsp_start_wave();
    }
    finish();
  }
}

}  // namespace hetlb::mpi::detail
