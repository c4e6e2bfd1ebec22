// A non-blocking sum of a few counters over every rank of a communicator, for the termination waves
// and the bulk-synchronous agreements. Two shapes, the same results:
//  - direct, up to `direct_up_to` ranks (kDirectSumRanks by default): every rank sends its counters to
//    every other at start(), 2(n - 1) messages per rank, and sums what it receives. No message depends
//    on another, so MPI moves them all on inside any MPI call, the program's own collective included:
//    a sum started at one iteration_done() call is complete at the next without a wait. A tree needs
//    every rank on its path inside a call to pass the partial sums on (2 log2(n) hops at the next
//    call: on 8 ranks sharing 2 cores about 1 ms per agreement, 15% of a 7 ms iteration).
//  - binomial tree, beyond: up to rank 0 and back down, 2(n - 1) messages in all and 2 log2(n) rounds
//    per sum, moved on by test(); no rank handles more than log2(n) + 1 messages per sum.
// Written on point-to-point messages because MPI_Iallreduce may be implemented as an all-to-all
// (SMPI's sends n(n - 1) messages, which alone made a 256-rank run take hours of simulation), and so
// that a stalled sum can name the ranks it waits for.
#pragma once
#include <mpi.h>

#include <vector>

namespace hetlb::mpi::detail {

// Up to this many ranks the sums are direct (n(n - 1) messages of a few bytes each). On 2 cores the
// direct sums made 8 ranks faster (0.74-1.0 of the time) and 16 ranks with short iterations slower
// (1.1x: 15 sends and receives per rank and call, and an agreement at every call).
constexpr int kDirectSumRanks = 8;

class TreeSum {
 public:
  TreeSum() = default;
  TreeSum(const TreeSum&) = delete;
  TreeSum& operator=(const TreeSum&) = delete;
  ~TreeSum();  // pending messages of an abandoned sum are cancelled

  // Sums of `count` counters over `comm`, messages with `tag` (no other use of the pair); direct on
  // communicators of at most `direct_up_to` ranks, else up a tree.
  void init(MPI_Comm comm, int tag, int count, int direct_up_to = kDirectSumRanks);
  // Starts a sum of `in` (count values); every rank starts its sums in the same sequence.
  void start(const double* in);
  // Moves the sum on; true (once) when it is complete, with the sums in `out`.
  bool test(double* out);
  bool active() const { return phase_ != Phase::idle; }
  // The ranks this sum waits for now: direct, those whose counters have not arrived; tree, the
  // children whose partial sums have not arrived, or the parent whose result has not (empty when idle
  // or sending).
  std::vector<int> waiting_for() const;

 private:
  enum class Phase { idle, gather, result, scatter };
  void send_down();

  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0, count_ = 0, parent_ = -1, rank_ = 0;
  bool direct_ = false;
  std::vector<int> children_;  // direct: every other rank, whose counters are received as a child's
  Phase phase_ = Phase::idle;
  std::vector<double> sum_, result_;
  std::vector<std::vector<double>> from_child_;
  std::vector<MPI_Request> child_requests_, send_requests_;
  MPI_Request parent_request_ = MPI_REQUEST_NULL;
};

}  // namespace hetlb::mpi::detail
