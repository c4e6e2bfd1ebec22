// Non-blocking binomial-tree sum (tree_sum.hpp).
#include "tree_sum.hpp"

#include <algorithm>

namespace hetlb::mpi::detail {

namespace {
bool all_done(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return true;
  int done = 0;
  MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
  return done != 0;
}
}  // namespace

TreeSum::~TreeSum() {
  std::vector<MPI_Request*> pending;
  for (MPI_Request& r : child_requests_) pending.push_back(&r);
  pending.push_back(&parent_request_);
  for (MPI_Request* r : pending)
    if (*r != MPI_REQUEST_NULL) {
      MPI_Cancel(r);
      MPI_Request_free(r);
    }
  for (MPI_Request& r : send_requests_)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

// Direct: every other rank is a "child" whose counters are received, and no rank is a parent.
// Binomial tree rooted at 0: rank r's parent clears r's lowest set bit; its children are r + 2^j for
// every 2^j below that bit (all powers of two for rank 0) that name a rank.
void TreeSum::init(MPI_Comm comm, int tag, int count, int direct_up_to) {
  comm_ = comm;
  tag_ = tag;
  count_ = count;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  rank_ = rank;
  direct_ = size <= direct_up_to;
  children_.clear();
  parent_ = -1;
  if (direct_) {
    for (int r = 0; r < size; ++r)
      if (r != rank) children_.push_back(r);
  } else {
    int mask = 1;
    for (; mask < size; mask <<= 1) {
      if (rank & mask) {
        parent_ = rank - mask;
        break;
      }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (rank + mask < size) children_.push_back(rank + mask);
  }
  sum_.assign(count, 0);
  result_.assign(count, 0);
  from_child_.assign(children_.size(), std::vector<double>(count, 0));
  child_requests_.assign(children_.size(), MPI_REQUEST_NULL);
}

void TreeSum::start(const double* in) {
  std::copy(in, in + count_, sum_.begin());
  for (std::size_t c = 0; c < children_.size(); ++c)
    MPI_Irecv(from_child_[c].data(), count_, MPI_DOUBLE, children_[c], tag_, comm_, &child_requests_[c]);
  if (parent_ >= 0) MPI_Irecv(result_.data(), count_, MPI_DOUBLE, parent_, tag_, comm_, &parent_request_);
  send_requests_.clear();
  if (direct_)  // every rank's counters to every other at once (sum_ is not written until they are sent)
    for (int other : children_) MPI_Isend(sum_.data(), count_, MPI_DOUBLE, other, tag_, comm_,
                                          &send_requests_.emplace_back(MPI_REQUEST_NULL));
  phase_ = Phase::gather;
}

std::vector<int> TreeSum::waiting_for() const {
  std::vector<int> ranks;
  if (phase_ == Phase::gather) {
    for (std::size_t c = 0; c < children_.size(); ++c) {
      int done = 1;
      if (child_requests_[c] != MPI_REQUEST_NULL) MPI_Request_get_status(child_requests_[c], &done, MPI_STATUS_IGNORE);
      if (!done) ranks.push_back(children_[c]);
    }
  } else if (phase_ == Phase::result) {
    ranks.push_back(parent_);
  }
  return ranks;
}

void TreeSum::send_down() {
  for (int child : children_) {
    MPI_Request& r = send_requests_.emplace_back(MPI_REQUEST_NULL);
    MPI_Isend(result_.data(), count_, MPI_DOUBLE, child, tag_, comm_, &r);
  }
  phase_ = Phase::scatter;
}

bool TreeSum::test(double* out) {
  if (phase_ == Phase::gather) {
    if (!all_done(child_requests_)) return false;
    if (direct_) {  // the sum is made once the own counters' sends are done (they read sum_)
      if (!all_done(send_requests_)) return false;
      send_requests_.clear();
      // In rank order from 0, so that every rank adds the same numbers in the same order and gets the
      // same bits (the decisions taken on the sums must agree).
      result_.assign(count_, 0);
      std::size_t c = 0;
      for (int r = 0; r <= static_cast<int>(children_.size()); ++r) {
        const bool mine = r == rank_;
        const std::vector<double>& part = mine ? sum_ : from_child_[c++];
        for (int i = 0; i < count_; ++i) result_[i] += part[i];
      }
      std::copy(result_.begin(), result_.end(), out);
      phase_ = Phase::idle;
      return true;
    }
    for (const auto& partial : from_child_)
      for (int i = 0; i < count_; ++i) sum_[i] += partial[i];
    if (parent_ < 0) {
      result_ = sum_;
      send_down();
    } else {
      MPI_Request& r = send_requests_.emplace_back(MPI_REQUEST_NULL);
      MPI_Isend(sum_.data(), count_, MPI_DOUBLE, parent_, tag_, comm_, &r);
      phase_ = Phase::result;
    }
  }
  if (phase_ == Phase::result) {
    int done = 0;
    MPI_Test(&parent_request_, &done, MPI_STATUS_IGNORE);
    if (!done) return false;
    send_down();
  }
  if (phase_ == Phase::scatter) {
    if (!all_done(send_requests_)) return false;
    std::copy(result_.begin(), result_.end(), out);
    phase_ = Phase::idle;
    return true;
  }
  return false;
}

}  // namespace hetlb::mpi::detail
