// The per-call agreement of a plan's transfers (agreement.hpp).
#include "agreement.hpp"

#include <algorithm>

namespace hetlb::mpi::detail {

Agreement::~Agreement() {
  if (receive_ != MPI_REQUEST_NULL) {
    MPI_Cancel(&receive_);
    MPI_Request_free(&receive_);
  }
  if (send_ != MPI_REQUEST_NULL) MPI_Request_free(&send_);
  if (reduce_ != MPI_REQUEST_NULL) MPI_Request_free(&reduce_);
}

void Agreement::merge(Values& into, const Values& other) {
  for (int i = 0; i < kCount; ++i) into[i] = std::max(into[i], other[i]);
}

int Agreement::start(const Values& mine, int sender) {
  mine_ = mine;
  sender_ = sender;
  if (size_ != 2) return MPI_Iallreduce(mine_.data(), out_.data(), kCount, MPI_INT, MPI_MAX, comm_, &reduce_);
  other_ = mine_;  // max(mine, mine) = mine where nothing comes back
  const int peer = 1 - rank_;
  int code = MPI_SUCCESS, sent = MPI_SUCCESS;
  if (sender_ != rank_) code = MPI_Irecv(other_.data(), kCount, MPI_INT, peer, kTag, comm_, &receive_);
  if (sender_ != peer) sent = MPI_Isend(mine_.data(), kCount, MPI_INT, peer, kTag, comm_, &send_);
  return code != MPI_SUCCESS ? code : sent;
}

int Agreement::finish(Values& out) {
  if (size_ != 2) {
    const int code = MPI_Wait(&reduce_, MPI_STATUS_IGNORE);
    out = out_;
    return code;
  }
  MPI_Request both[2] = {receive_, send_};
  const int code = MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
  receive_ = send_ = MPI_REQUEST_NULL;
  out = mine_;
  merge(out, other_);
  return code;
}

}  // namespace hetlb::mpi::detail
