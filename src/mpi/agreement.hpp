// The per-call argument check of a plan's scatter and gather: the element-wise maximum of a few ints
// over every rank of the plan's communicator, started before the blocks move and completed after.
// Between two ranks it is one exchange of 12 bytes (measured on Open MPI 4.1, 2 ranks: the checked
// gather of 64 KB went from +18.6% over MPI_Gatherv with MPI_Iallreduce to +5.0%), or a single
// message from one rank when the other's values travel with its block (one_way: the gather, where the
// root learns the other rank's verdict from the block's tag and length). With more ranks it is
// MPI_Iallreduce, whose later rounds MPI moves during the transfer's own waits (a point-to-point
// dissemination would add its rounds' latencies after the last block: +1.8% on the 16-rank SMPI grid
// of the scatter tests, beyond their 1% bound).
#pragma once
#include <mpi.h>

#include <array>

namespace hetlb::mpi::detail {

class Agreement {
 public:
  static constexpr int kCount = 3;
  static constexpr int kTag = 4771;  // the messages between two ranks (blocks use 4770)
  static constexpr int kExchange = -1;
  using Values = std::array<int, kCount>;

  Agreement(MPI_Comm comm, int rank, int size) : comm_(comm), rank_(rank), size_(size) {}
  Agreement(const Agreement&) = delete;
  Agreement& operator=(const Agreement&) = delete;
  ~Agreement();  // a started and unfinished agreement (an exception) is cancelled

  // Starts the agreement on `mine`; returns the first failing MPI code, else MPI_SUCCESS. Between two
  // ranks, `sender` >= 0 makes it one message from `sender` to the other rank: the sender's finish()
  // then returns its own values only, and the caller merges the other's (merge()).
  int start(const Values& mine, int sender = kExchange);
  // Completes it: the maxima in `out`. Returns the first failing MPI code.
  int finish(Values& out);
  // Whether this rank's finish() lacks the other rank's values (the sender of a one-way agreement).
  bool partial() const { return size_ == 2 && sender_ == rank_; }
  static void merge(Values& into, const Values& other);
  const Values& other() const { return other_; }  // what came from the other of two ranks

 private:
  MPI_Comm comm_;
  int rank_, size_;
  int sender_ = kExchange;
  Values mine_{}, other_{}, out_{};
  MPI_Request receive_ = MPI_REQUEST_NULL, send_ = MPI_REQUEST_NULL, reduce_ = MPI_REQUEST_NULL;
};

}  // namespace hetlb::mpi::detail
