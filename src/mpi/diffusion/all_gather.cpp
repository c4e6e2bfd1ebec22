// Non-blocking all-gather by Bruck's algorithm (all_gather.hpp).
#include "all_gather.hpp"

#include <algorithm>

namespace hetlb::mpi::detail {

AllGather::~AllGather() {
  if (recv_ != MPI_REQUEST_NULL) {
    MPI_Cancel(&recv_);
    MPI_Request_free(&recv_);
  }
  for (MPI_Request& r : sends_)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void AllGather::init(MPI_Comm comm, int tag, int count) {
  comm_ = comm;
  tag_ = tag;
  count_ = count;
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
  blocks_.assign(static_cast<std::size_t>(size_) * static_cast<std::size_t>(count), 0.0);
}

void AllGather::start(const double* in) {
  std::copy(in, in + count_, blocks_.begin());
  sends_.clear();
  distance_ = 1;
  active_ = true;
  if (size_ > 1) post_round();
}

// Round of distance d: the first min(d, n - d) blocks to rank - d, as many from rank + d into blocks d on.
// The blocks sent are only read, and those received land beyond them: the next round may start while
// this round's sends are in flight.
void AllGather::post_round() {
  const int blocks = std::min(distance_, size_ - distance_);
  const std::size_t at = static_cast<std::size_t>(distance_) * static_cast<std::size_t>(count_);
  MPI_Irecv(blocks_.data() + at, blocks * count_, MPI_DOUBLE, (rank_ + distance_) % size_, tag_, comm_, &recv_);
  MPI_Request& s = sends_.emplace_back(MPI_REQUEST_NULL);
  MPI_Isend(blocks_.data(), blocks * count_, MPI_DOUBLE, (rank_ - distance_ + size_) % size_, tag_, comm_, &s);
}

std::vector<int> AllGather::waiting_for() const {
  if (!active_ || recv_ == MPI_REQUEST_NULL) return {};
  int done = 1;
  MPI_Request_get_status(recv_, &done, MPI_STATUS_IGNORE);
  if (done) return {};
  return {(rank_ + distance_) % size_};
}

bool AllGather::test(double* out) {
  if (!active_) return false;
  while (distance_ < size_) {
    int done = 0;
    MPI_Test(&recv_, &done, MPI_STATUS_IGNORE);
    if (!done) return false;
    distance_ *= 2;
    if (distance_ < size_) post_round();
  }
  if (!sends_.empty()) {
    int done = 0;
    MPI_Testall(static_cast<int>(sends_.size()), sends_.data(), &done, MPI_STATUSES_IGNORE);
    if (!done) return false;
    sends_.clear();
  }
  // Block i holds rank (rank_ + i) mod n's values.
  const std::size_t c = static_cast<std::size_t>(count_);
  for (int i = 0; i < size_; ++i) {
    const auto from = blocks_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * c);
    std::copy(from, from + static_cast<std::ptrdiff_t>(c),
              out + static_cast<std::size_t>((rank_ + i) % size_) * c);
  }
  active_ = false;
  return true;
}

}  // namespace hetlb::mpi::detail
