// A non-blocking sum of a few counters over every rank of a communicator, for the termination waves:
// up a binomial tree to rank 0 and back down, 2(n-1) messages of a few bytes and 2 log2(n) rounds per
// sum, moved on by test(). Written on point-to-point messages because MPI_Iallreduce may be
// implemented as an all-to-all (SMPI's sends n(n-1) messages, which alone made a 256-rank run take
// hours of simulation); here no rank handles more than log2(n) + 1 messages per sum.
#pragma once
#include <mpi.h>

#include <vector>

namespace hetlb::mpi::detail {

class TreeSum {
 public:
  TreeSum() = default;
  TreeSum(const TreeSum&) = delete;
  TreeSum& operator=(const TreeSum&) = delete;
  ~TreeSum();  // pending messages of an abandoned sum are cancelled

  // Sums of `count` counters over `comm`, messages with `tag` (no other use of the pair).
  void init(MPI_Comm comm, int tag, int count);
  // Starts a sum of `in` (count values); every rank starts its sums in the same sequence.
  void start(const double* in);
  // Moves the sum on; true (once) when it is complete, with the sums in `out`.
  bool test(double* out);
  bool active() const { return phase_ != Phase::idle; }
  // The ranks this sum waits for now: children whose partial sums have not arrived, or the parent
  // whose result has not (empty when idle or sending).
  std::vector<int> waiting_for() const;

 private:
  enum class Phase { idle, gather, result, scatter };
  void send_down();

  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0, count_ = 0, parent_ = -1;
  std::vector<int> children_;
  Phase phase_ = Phase::idle;
  std::vector<double> sum_, result_;
  std::vector<std::vector<double>> from_child_;
  std::vector<MPI_Request> child_requests_, send_requests_;
  MPI_Request parent_request_ = MPI_REQUEST_NULL;
};

}  // namespace hetlb::mpi::detail
