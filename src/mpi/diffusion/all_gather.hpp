// A non-blocking all-gather of a fixed number of doubles per rank, for the global steps' contributions
// (global_step.cpp): Bruck's algorithm (Bruck et al., "Efficient algorithms for all-to-all
// communications in multiport message-passing systems", 1997), ceil(log2(n)) rounds, in round k each
// rank sending the min(2^k, n - 2^k) blocks it holds to rank - 2^k and receiving as many from
// rank + 2^k, so that every rank receives each other rank's block exactly once. Written on
// point-to-point messages, moved on by test(), because MPI_Iallgather may be n(n-1) messages at once
// (SMPI's is: a 256-rank simulation spent hours in its network solver); a sum of slots up and down a
// tree (tree_sum.hpp) would take twice the rounds and send the whole table at each of them.
#pragma once
#include <mpi.h>

#include <vector>

namespace hetlb::mpi::detail {

class AllGather {
 public:
  AllGather() = default;
  AllGather(const AllGather&) = delete;
  AllGather& operator=(const AllGather&) = delete;
  ~AllGather();  // pending messages of an abandoned gather are cancelled

  // Gathers of `count` doubles per rank over `comm`, messages with `tag` (no other use of the pair).
  void init(MPI_Comm comm, int tag, int count);
  // Starts a gather of `in` (count values); every rank starts its gathers in the same sequence.
  void start(const double* in);
  // Moves the gather on; true (once) when complete, with rank r's values at out[r x count].
  bool test(double* out);
  bool active() const { return active_; }
  // The rank whose message this gather waits for now (empty when idle or only sending).
  std::vector<int> waiting_for() const;

 private:
  void post_round();

  MPI_Comm comm_ = MPI_COMM_NULL;
  int tag_ = 0, count_ = 0, rank_ = 0, size_ = 1;
  int distance_ = 1;  // 2^k of the round in progress
  bool active_ = false;
  std::vector<double> blocks_;  // block i: rank (rank_ + i) mod size_'s values
  MPI_Request recv_ = MPI_REQUEST_NULL;
  std::vector<MPI_Request> sends_;
};

}  // namespace hetlb::mpi::detail
