// Bulk-synchronous mode of the diffusion runtime (docs/runtime.md, "End of the run"): the iteration
// count is the clock. Every `sync_interval` calls of iteration_done() (an agreement call) each rank
// contributes to a non-blocking sum over all ranks (the tree sum of the termination waves) of
// (ranks not converged, ranks with whole items owed to a neighbour, ranks past the time limit); every
// rank applies that result at the next agreement call, `sync_interval` calls later:
//  - end: every rank converged (with end_on_convergence), or one past the time limit: every rank
//    returns false from the same call;
//  - hand-over: some rank owes whole items: every rank sends each neighbour one data message (what it
//    owes, possibly nothing) and receives one from each, inside the call. Items therefore move only
//    inside an agreement call, and between two calls every item is held by exactly one rank.
// Balancing decisions (control messages, Algorithm 3) go on asynchronously between agreement calls.
// The only waits: the sum's completion and the neighbours' hand-over messages of the same call, i.e.
// until the other ranks reach that call, which a program with a collective every step waits anyway.
#include <cmath>
#include <cstring>

#include "clock.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

namespace {
constexpr int kTag = 7;  // data messages on data_ (activities.cpp)
}

bool DiffusionRuntime::wants_handover() const {
  if (store.size() == 0) return false;
  for (std::size_t p = 0; p < hood.neighbours.size(); ++p)
    if (carry_[p] + state_->owed(static_cast<int>(p)) >= 1 - 1e-9) return true;
  return false;
}

void DiffusionRuntime::bsp_start_wave() {
  // Converged, and still in the band after this call's hand-over (nothing moves until the result).
  wave_in_[0] = tracker_->converged(0) && tracker_->in_band(relative(state_->real())) ? 0 : 1;
  wave_in_[1] = wants_handover() ? 1 : 0;
  wave_in_[2] = options.time_limit > 0 && now() - t0_ >= options.time_limit ? 1 : 0;
  wave_in_[3] = 0;
  wave_in_[4] = 0;
  contribute_speed();
  wave_ready_ = false;
  wave_.start(wave_in_);
  ++waves_started_;
}

// A short pause while waiting for other ranks (the machine may have fewer cores than ranks).
void DiffusionRuntime::wait_a_little(std::unique_lock<std::mutex>& lock) {
  lock.unlock();
  pause_for(2e-5);
  lock.lock();
}

void DiffusionRuntime::bsp_complete_wave(std::unique_lock<std::mutex>& lock) {
  while (!wave_ready_) {
    if (!threaded) poll();  // receiving and balancing go on; poll() moves the sum on
    if (!wave_ready_ && wave_.active() && wave_.test(wave_out_)) wave_ready_ = true;
    if (!wave_ready_) wait_a_little(lock);
  }
  wave_ready_ = false;
}

// Each neighbour gets exactly one message per hand-over (the amount released, then whole items), so a
// receiver knows what to wait for; messages between two ranks do not overtake each other.
void DiffusionRuntime::handover(std::unique_lock<std::mutex>& lock) {
  const std::size_t degree = hood.neighbours.size();
  for (std::size_t p = 0; p < degree; ++p) {
    const double a = state_->release(static_cast<int>(p));
    if (a > 0) carry_[p] += a;
    const double whole = std::floor(carry_[p] + 1e-9);
    const std::size_t n = std::min(store.size(), static_cast<std::size_t>(std::max(0.0, whole)));
    carry_[p] -= static_cast<double>(n);
    const double amount = a > 0 ? a : 0.0;
    std::vector<char> bytes(sizeof(double));
    std::memcpy(bytes.data(), &amount, sizeof(double));
    store.pack_back(n, bytes);
    moved_ += static_cast<double>(n);
    ++data_messages_;
    ++data_to_[p];
    send(data_, static_cast<int>(p), std::move(bytes));
  }
  std::vector<char> got(degree, 0);
  for (std::size_t left = degree; left > 0;) {
    bool any = false;
    for (std::size_t p = 0; p < degree; ++p) {
      if (got[p]) continue;
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(hood.neighbours[p], kTag, data_, &flag, &st);
      if (!flag) continue;
      int count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      Incoming in;
      in.slot = static_cast<int>(p);
      in.bytes.resize(static_cast<std::size_t>(count));
      MPI_Recv(in.bytes.data(), count, MPI_BYTE, hood.neighbours[p], kTag, data_, MPI_STATUS_IGNORE);
      data_arrived(in);
      got[p] = 1;
      --left;
      any = true;
    }
    if (left == 0) break;
    if (!threaded) poll();
    if (!any) wait_a_little(lock);
  }
  take_in();
  reap();
  ++handovers_;
}

bool DiffusionRuntime::bsp_iteration_done(std::unique_lock<std::mutex>& lock) {
  ++calls_;
  if (!threaded) poll();
  if (calls_ % options.sync_interval == 0) {
    bsp_complete_wave(lock);
    update_target();
    const bool converged_everywhere = wave_out_[0] == 0 && options.end_on_convergence;
    if (converged_everywhere || wave_out_[2] > 0) {
      finish();
      take_in();
      return false;
    }
    if (wave_out_[1] > 0) handover(lock);
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
