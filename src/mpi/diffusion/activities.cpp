// Receiving and load-balancing activities of the diffusion runtime (Couturier & Giersch, Algorithms 1
// and 3), as the simulator runs them (src/sim/diffusion_activities.cpp): control messages queue for
// the balancing step, data is handed to the node's state at once; each balancing step applies the
// queue, decides, and reports to every neighbour (identical reports skipped).
#include <cstdio>
#include <cstring>

#include "hetlb/error.hpp"

#include "clock.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

namespace {
constexpr int kTag = 7;
static_assert(sizeof(diffusion::Report) == 4 * sizeof(double));
}  // namespace

void DiffusionRuntime::send(MPI_Comm comm, int slot, std::vector<char> bytes) {
  Outgoing& o = outgoing_.emplace_back();
  o.bytes = std::move(bytes);
  MPI_Isend(o.bytes.data(), static_cast<int>(o.bytes.size()), MPI_BYTE, hood.neighbours[slot], kTag, comm,
            &o.request);
}

void DiffusionRuntime::reap() {
  for (auto it = outgoing_.begin(); it != outgoing_.end();) {
    int done = 0;
    MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
    if (!done) {
      ++it;
      continue;
    }
    pool_.give(std::move(it->bytes));
    it = outgoing_.erase(it);
  }
}

bool DiffusionRuntime::receive_control(int source, bool blocking) {
  MPI_Status st;
  diffusion::Report r;
  if (blocking) {
    MPI_Recv(&r, 4, MPI_DOUBLE, source, kTag, ctrl_, &st);
  } else {
    int flag = 0;
    MPI_Iprobe(source, kTag, ctrl_, &flag, &st);
    if (!flag) return false;
    MPI_Recv(&r, 4, MPI_DOUBLE, st.MPI_SOURCE, kTag, ctrl_, &st);
  }
  const int slot = slot_of(st.MPI_SOURCE);
  ++ctrl_from_[slot];
  if (!closing_) ctrl_fifo_.emplace_back(slot, r);
  return true;
}

// Data messages are received as the simulator's receiving activity does (Algorithm 1): one at a time,
// while computing and balancing go on. The receive of a probed message is posted and completes later
// (a blocking receive would hold the rank for the whole transfer: a large message moves only once its
// receive is posted); the next one is posted when it has completed. The load counts as received when
// its transfer has completed. blocking: wait for one message and its transfer (the closing exchange).
bool DiffusionRuntime::receive_data(int source, bool blocking) {
  MPI_Status st;
  int flag = 1;
  if (blocking)
    MPI_Probe(source, kTag, data_, &st);
  else
    MPI_Iprobe(source, kTag, data_, &flag, &st);
  if (!flag) return false;
  int bytes = 0;
  MPI_Get_count(&st, MPI_BYTE, &bytes);
  Incoming& in = incoming_.emplace_back();
  in.slot = slot_of(st.MPI_SOURCE);
  in.bytes = pool_.take(static_cast<std::size_t>(bytes));
  in.bytes.resize(static_cast<std::size_t>(bytes));
  MPI_Irecv(in.bytes.data(), bytes, MPI_BYTE, st.MPI_SOURCE, kTag, data_, &in.request);
  if (blocking) {
    MPI_Wait(&in.request, MPI_STATUS_IGNORE);
    data_arrived(in);
    incoming_.pop_back();
  }
  return true;
}

void DiffusionRuntime::data_arrived(Incoming& in) {
  ++data_from_[in.slot];
  double amount = 0;
  std::memcpy(&amount, in.bytes.data(), sizeof amount);
  state_->data_received(in.slot, amount);
  inbox_.insert(inbox_.end(), in.bytes.begin() + sizeof amount, in.bytes.end());
  pool_.give(std::move(in.bytes));
  data_cv_.notify_all();
}

// Data messages whose transfer has completed (wait: all of them, in the order they were posted).
void DiffusionRuntime::complete_receives(bool wait) {
  for (auto it = incoming_.begin(); it != incoming_.end();) {
    int done = 1;
    if (wait)
      MPI_Wait(&it->request, MPI_STATUS_IGNORE);
    else
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
    if (!done) {
      ++it;
      continue;
    }
    data_arrived(*it);
    it = incoming_.erase(it);
  }
}

void DiffusionRuntime::receive_all() {
  while (receive_control(MPI_ANY_SOURCE, false)) {
  }
  if (options.bulk_synchronous && !closing_) return;  // data only at the hand-overs
  complete_receives(false);
  while (incoming_.empty() && receive_data(MPI_ANY_SOURCE, false)) complete_receives(false);
}

long long DiffusionRuntime::data_messages_received() const {
  long long s = 0;
  for (long long c : data_from_) s += c;
  return s;
}

void DiffusionRuntime::poll() {
  receive_all();
  const double t = now();
  if (t >= next_balance_) balance();
  if (!options.bulk_synchronous)
    termination();
  else if (wave_.active() && !wave_ready_ && wave_.test(wave_out_))
    wave_ready_ = true;  // applied at the next agreement call (bulk_synchronous.cpp)
  if (!outgoing_.empty()) reap();
}

// Algorithm 3: apply the control messages received, run the strategy on the own view and the
// estimates, report to every neighbour. The next step comes one minimum period later.
void DiffusionRuntime::balance() {
  if (frozen_ || hold_ || stopping_) return;  // settled for a wave (this step comes after it), or stopping
  const double start = now();
  // Balance by time with measured speeds: a speed of 0 on the wire is "not measured yet"; such a
  // neighbour is taken to be as fast as this rank. This rank decides once it has measured its own speed
  // and heard from every neighbour (before, its view of their speeds would be arbitrary).
  const bool measured = by_time() && given_speed_ == 0;
  const bool own_known = !measured || estimator_.known();
  for (auto& [slot, report] : ctrl_fifo_) {
    if (measured && !(report.speed > 0)) report.speed = own_known ? state_->speed() : 1.0;
    state_->control_received(slot, report);
  }
  ctrl_fifo_.clear();
  // Balancer global: no diffusion decisions (the global steps move the items, global_step.cpp); nor
  // the hybrid's on a rank within the margin of its share, in a run the program ends (within_margin,
  // bulk_synchronous.cpp): it would give nothing, and its announcements would only be messages.
  if (own_known && (!measured || state_->heard_from_all()) && options.balancer != "global" && !within_margin()) {
    try {
      state_->decide(strategy_, {rank_, start - t0_});
    } catch (const hetlb::Error& e) {
      // A faulty plug-in decision: the run cannot go on consistently on any rank (docs/adding-a-strategy.md).
      std::fprintf(stderr, "hetlb: rank %d: %s\n", rank_, e.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  for (std::size_t p = 0; p < hood.neighbours.size(); ++p) {
    diffusion::Report r = state_->report(static_cast<int>(p));
    if (!own_known) r.speed = 0;
    const diffusion::Report& last = last_sent_[p];
    if (sent_any_[p] && r.announced == 0 && r.load == last.load && r.accounted == last.accounted &&
        r.speed == last.speed) {
      ++ctrl_skipped_;
      continue;
    }
    last_sent_[p] = r;
    sent_any_[p] = 1;
    ++ctrl_messages_;
    ++ctrl_to_[p];
    std::vector<char> bytes(sizeof r);
    std::memcpy(bytes.data(), &r, sizeof r);
    send(ctrl_, static_cast<int>(p), std::move(bytes));
  }
  ++lb_iterations_;
  next_balance_ = start + options.min_balancing_period;
}

// Decentralised termination: every period, a non-blocking sum over all ranks of (ranks not converged,
// ranks not settled, data messages sent, data messages received, ranks past the time limit). A rank
// is settled when it is converged, owes nothing, and stays in the band once it has taken in what it
// received. From its settled contribution to the wave's result it makes no decision, so it sends
// nothing, and its load cannot change unless data sent before the sender's contribution arrives after
// its own, which makes the wave's sent and received sums differ. A wave that finds every rank settled
// and the sums equal therefore ends the run with every rank converged and nothing in flight (a
// four-counter check on one consistent cut); every rank sees the same sums, so every rank ends on the
// same wave. A wave that
// finds every rank converged but not all settled holds every rank's decisions until the next wave
// (a rank that leaves the band resumes at once), so that data in flight lands and the next one ends.
// Past the time limit a rank starts its next wave at once, whatever the period: the limit is checked on
// the clock at every poll, not only at the waves' pace.
void DiffusionRuntime::termination() {
  if (wave_.active()) {
    if (wave_.test(wave_out_)) wave_done();
  } else if (now() >= next_wave_ || past_time_limit()) {
    start_wave();
  }
}

bool DiffusionRuntime::past_time_limit() const {
  return options.time_limit > 0 && now() - t0_ >= options.time_limit;
}

void DiffusionRuntime::start_wave() {
  long long sent = 0;
  for (long long c : data_to_) sent += c;
  const bool converged = tracker_->converged(0);
  const bool settled =
      converged && !(state_->owed_total() > 0) && tracker_->in_band(relative(state_->real() + state_->pending()));
  frozen_ = settled;
  wave_in_[0] = converged ? 0 : 1;
  wave_in_[1] = settled ? 0 : 1;
  wave_in_[2] = static_cast<double>(sent);
  wave_in_[3] = static_cast<double>(data_messages_received());
  wave_in_[4] = past_time_limit() ? 1 : 0;
  wave_in_[8] = stopping_ ? 1 : 0;
  contribute_speed();
  wave_.start(wave_in_);
  ++waves_started_;
}

void DiffusionRuntime::wave_done() {
  update_target();
  if ((options.end_on_convergence && wave_out_[1] == 0 && wave_out_[2] == wave_out_[3]) || wave_out_[4] > 0 ||
      wave_out_[8] == size_) {
    finish();
    return;
  }
  if (wave_out_[8] > 0 && !others_stopping_) {
    others_stopping_ = true;
    data_cv_.notify_all();  // a rank waiting for load goes on to its stop()
  }
  frozen_ = false;
  hold_ = options.end_on_convergence && wave_out_[0] == 0 && tracker_->converged(0);
  // Held, nothing changes but data landing: the next wave at once (termination latency).
  next_wave_ = wave_out_[0] == 0 ? now() : now() + options.min_balancing_period;
}

// The closing exchange: no more decisions or sends; each rank tells each neighbour how many data and
// control messages it sent there, and receives until it has them all. Nothing is left in flight.
void DiffusionRuntime::finish() {
  closing_ = true;
  finish_date_ = now();
  const std::size_t degree = hood.neighbours.size();
  std::vector<long long> out(2 * degree), in(2 * degree);
  std::vector<MPI_Request> requests(2 * degree);
  for (std::size_t p = 0; p < degree; ++p) {
    out[2 * p] = data_to_[p];
    out[2 * p + 1] = ctrl_to_[p];
    MPI_Irecv(&in[2 * p], 2, MPI_LONG_LONG, hood.neighbours[p], kTag + 1, term_, &requests[p]);
    MPI_Isend(&out[2 * p], 2, MPI_LONG_LONG, hood.neighbours[p], kTag + 1, term_, &requests[degree + p]);
  }
  // Receiving while waiting: a neighbour's synchronous-mode data send could otherwise block it.
  const double since = now();
  for (int all = 0; !all;) {
    receive_all();
    MPI_Testall(static_cast<int>(requests.size()), requests.data(), &all, MPI_STATUSES_IGNORE);
    if (!all && options.bulk_synchronous)  // a rank out of step never comes (bulk_synchronous.cpp)
      bsp_check_stall(since, [&] { return "rank(s) " + pending_neighbours(requests) + " in the closing exchange"; });
  }
  complete_receives(true);
  for (std::size_t p = 0; p < degree; ++p) {
    while (data_from_[p] < in[2 * p]) receive_data(hood.neighbours[p], true);
    while (ctrl_from_[p] < in[2 * p + 1]) receive_control(hood.neighbours[p], true);
  }
  for (Outgoing& o : outgoing_) MPI_Wait(&o.request, MPI_STATUS_IGNORE);
  outgoing_.clear();
  ctrl_fifo_.clear();
  finished_ = true;
  data_cv_.notify_all();
}

// stop(): every rank calls it once. Bulk-synchronous mode: bulk_synchronous.cpp. Asynchronous mode:
// the rank makes no more decisions and goes on with the termination waves (receiving meanwhile) until
// one finds every rank in stop(), or ends the run otherwise. Ranks still computing take part in the
// waves from their own calls; those waiting for load learn from the first such wave that a rank stops,
// and return, so that their program reaches its stop() too.
void DiffusionRuntime::stop() {
  if (!started_) throw Error(HETLB_DIFFUSION_ERR_STATE, "stop() before start()");
  std::unique_lock lock(mutex_);
  if (options.bulk_synchronous) {
    bsp_stop(lock);
  } else if (!finished_) {
    async_stop(lock);
  }
  quit_ = true;
  lock.unlock();
  if (thread_.joinable()) thread_.join();
  lock.lock();
  take_in();
}

void DiffusionRuntime::async_stop(std::unique_lock<std::mutex>& lock) {
  stopping_ = true;
  next_wave_ = now();  // no period to wait: the other ranks learn of it from the next wave
  while (!finished_) {
    receive_all();
    if (wave_.active()) {
      if (wave_.test(wave_out_)) wave_done();
    } else {
      start_wave();
    }
    if (!outgoing_.empty()) reap();
    if (finished_) break;
    lock.unlock();
    pause_for(quantum());
    lock.lock();
  }
}

}  // namespace hetlb::mpi::detail
