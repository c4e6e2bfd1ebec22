// Plan::scatter and Plan::gather: the blocks move point to point in the plan's order over the plan's
// own communicator, while one agreement (agreement.hpp), started first, checks the arguments that must agree
// (local buffer/type errors, type sizes). Nothing waits on the check: a rank with a bad argument still
// takes part with empty messages (or drains what it is sent), so no rank hangs, and every rank then
// learns the same verdict. Only MPI failures during the transfer stay local (HETLB_MPI_E_MPI).
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "agreement.hpp"
#include "collective_status.hpp"
#include "hetlb/mpi/plan.hpp"

namespace hetlb::mpi {

namespace {

constexpr int kTransferTag = 4770;  // RR-4770; on the plan's own communicator only
// In place of a block between two ranks whose check is one-way (the gather): an empty message whose
// tag says why, a local argument error of kind K (kKindTag + K) or a failed send.
constexpr int kFailedTag = 4799, kKindTag = 4800;
constexpr int kNone = INT_MIN;

enum class Direction { Scatter, Gather };

// Bytes per element of a type whose elements are packed bytes (size = extent = true extent, lower
// bound 0), else 0.
MPI_Aint contiguous_bytes(MPI_Datatype type) {
  int size = 0;
  MPI_Aint lower = 0, extent = 0, true_lower = 0, true_extent = 0;
  if (MPI_Type_size(type, &size) != MPI_SUCCESS || MPI_Type_get_extent(type, &lower, &extent) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(type, &true_lower, &true_extent) != MPI_SUCCESS)
    return 0;
  return size > 0 && lower == 0 && true_lower == 0 && extent == size && true_extent == size ? size : 0;
}

class Transfer {
 public:
  Transfer(const Distribution& d, MPI_Comm comm, int rank, int size, bool checks)
      : d_(d), comm_(comm), rank_(rank), size_(size), checks_(checks), agreement_(comm, rank, size) {}

  // One side of the call on this rank: `items` elements of `type` at `buffer` (send or receive).
  // Returns whether the side is usable; records the first local error and the type size.
  bool side(bool needed, const void* buffer, MPI_Datatype type, const char* role, std::int64_t items, int& size_out) {
    size_out = kNone;
    if (!needed) return true;
    if (type == MPI_DATATYPE_NULL) return fail(HETLB_MPI_E_TYPE, fmt::format("rank {}: {} type MPI_DATATYPE_NULL for {} items", rank_, role, items));
    int bytes = 0;
    if (MPI_Type_size(type, &bytes) != MPI_SUCCESS)
      return fail(HETLB_MPI_E_TYPE, fmt::format("rank {}: invalid {} type", rank_, role));
    size_out = bytes;
    if (buffer == nullptr) return fail(HETLB_MPI_E_BUFFER, fmt::format("rank {}: null {} buffer for {} items", rank_, role, items));
    if (buffer == MPI_IN_PLACE)
      return fail(HETLB_MPI_E_BUFFER, fmt::format("rank {}: MPI_IN_PLACE as the {} buffer; expected it only at the root "
                                                  "(the receive buffer of a scatter, the send buffer of a gather)",
                                                  rank_, role));
    return true;
  }

  // Between two ranks the gather's check is one message from the root (Agreement's one-way form): the
  // other rank's verdict travels with its block (the tag of an empty message in its place, else the
  // block's length gives its type's size).
  void start(int send_size, int recv_size, Direction direction) {
    send_size_ = send_size, recv_size_ = recv_size;
    if (!checks_) return;  // hetlb_mpi_plan_set_checks(plan, 0): local verdicts only
    in_[0] = kind_ ? (size_ - rank_) * 16 + kind_ : 0;
    in_[1] = std::max(send_size, recv_size);
    in_[2] = std::max(send_size == kNone ? kNone : -send_size, recv_size == kNone ? kNone : -recv_size);
    one_way_ = size_ == 2 && direction == Direction::Gather;
    started_ = note(agreement_.start(in_, one_way_ ? d_.root : detail::Agreement::kExchange),
                    "the agreement's MPI_Isend/MPI_Irecv");
  }

  void send(const void* block, int count, MPI_Datatype type, int to, bool ok) {
    if (ok && note(MPI_Send(block, count, type, to, kTransferTag, comm_), "MPI_Send")) return;
    // In place of the block: the receiver never hangs.
    int tag = kTransferTag;
    if (one_way_ && !ok) tag = kKindTag + kind_;
    if (one_way_ && ok) tag = kFailedTag, send_failed_ = true;
    MPI_Send(nullptr, 0, MPI_BYTE, to, tag, comm_);
  }

  void receive(void* block, int count, MPI_Datatype type, int type_size, int from, bool ok) {
    MPI_Status status;
    if (ok) {
      const int rc = MPI_Recv(block, count, type, from, block_tag(), comm_, &status);
      received(rc, status);
      if (!note(rc, "MPI_Recv")) return;
      check_length(status, static_cast<long long>(count) * type_size, from);
      return;
    }
    MPI_Message message;  // no usable buffer here: take the block into scratch memory
    if (!note(MPI_Mprobe(from, block_tag(), comm_, &message, &status), "MPI_Mprobe")) return;
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    std::vector<char> scratch(static_cast<std::size_t>(bytes) + 1);
    const bool drained = note(MPI_Mrecv(scratch.data(), bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
    received(drained ? MPI_SUCCESS : MPI_ERR_OTHER, status);
  }

  // Did the whole block come? (A failed send arrives as an empty message.)
  void check_length(const MPI_Status& status, long long expected, int from) {
    int bytes = 0;
    MPI_Get_count(&status, MPI_BYTE, &bytes);
    if (static_cast<long long>(bytes) != expected && short_from_ < 0) short_from_ = from, short_bytes_ = bytes - expected;
  }

  // The root's nonblocking forms: one transfer in flight at a time (the plan's single port), so that
  // the root's own copy overlaps the transfer beside it in the order (as MPI_Scatterv's local copy
  // overlaps its sends).
  void isend(const void* block, int count, MPI_Datatype type, int to, bool ok) {
    wait_pending();
    if (ok && note(MPI_Isend(block, count, type, to, kTransferTag, comm_, &pending_), "MPI_Isend")) return;
    MPI_Send(nullptr, 0, MPI_BYTE, to, kTransferTag, comm_);
  }
  void ireceive(void* block, int count, MPI_Datatype type, int type_size, int from, bool ok) {
    wait_pending();
    if (!ok) return receive(block, count, type, type_size, from, ok);
    if (!note(MPI_Irecv(block, count, type, from, block_tag(), comm_, &pending_), "MPI_Irecv")) return;
    pending_bytes_ = static_cast<long long>(count) * type_size, pending_from_ = from;
  }
  void wait_pending() {
    if (pending_ == MPI_REQUEST_NULL) return;
    MPI_Status status;
    const int rc = MPI_Wait(&pending_, &status);
    if (pending_from_ >= 0) received(rc, status);
    if (!note(rc, "MPI_Wait")) return;
    if (pending_from_ >= 0) check_length(status, pending_bytes_, pending_from_);  // a receive
    pending_from_ = -1;
  }

  // The root's own block: a memcpy in 64 KB pieces when both types are contiguous bytes (as MPI's
  // own local copy does: one memcpy of tens of MB switches to cache-bypassing stores, measured 8-10%
  // slower here at 64 MB), else a message to itself.
  void self_copy(const void* from, MPI_Datatype from_type, void* to, MPI_Datatype to_type, int count) {
    const MPI_Aint from_bytes = contiguous_bytes(from_type);
    const MPI_Aint to_bytes = to_type == from_type ? from_bytes : contiguous_bytes(to_type);
    if (from_bytes > 0 && from_bytes == to_bytes) {
      constexpr std::size_t kPiece = 64 << 10;
      const std::size_t bytes = static_cast<std::size_t>(from_bytes) * static_cast<std::size_t>(count);
      const char* source = static_cast<const char*>(from);
      char* target = static_cast<char*>(to);
      for (std::size_t done = 0; done < bytes; done += kPiece)
        std::memcpy(target + done, source + done, std::min(kPiece, bytes - done));
      return;
    }
    note(MPI_Sendrecv(from, count, from_type, rank_, kTransferTag, to, count, to_type, rank_, kTransferTag, comm_, MPI_STATUS_IGNORE),
         "MPI_Sendrecv");
  }

  // The verdict, the same on every rank for agreed errors; throws hetlb::mpi::Error.
  void finish(Direction direction) {
    if (checks_) {
      if (!started_ || !note(agreement_.finish(out_), "the agreement's MPI_Wait"))
        throw Error(HETLB_MPI_E_MPI, mpi_error_, true);
      if (agreement_.partial()) detail::Agreement::merge(out_, peer_values());
      if (send_failed_) {  // what the root infers from the empty message that replaced our block
        out_ = {in_[0], kNone, kNone};
        detail::Agreement::merge(out_, agreement_.other());
      }
      if (out_[0] > 0) {  // agreed errors first: an MPI error they caused (a truncation) is no news
        const int from = size_ - out_[0] / 16, kind = out_[0] % 16;
        throw Error(kind, detail::broadcast_text(why_, from, comm_), rank_ == d_.root);
      }
      if (out_[1] != kNone && out_[1] != -out_[2]) type_mismatch(direction);
    } else if (kind_) {  // hetlb_mpi_plan_set_checks(plan, 0): what this rank saw, as with MPI_Scatterv
      throw Error(kind_, why_, true);
    }
    // Local from here on. A longer block than planned fails its receive (MPI_ERR_TRUNCATE, above); a
    // shorter one is a sender whose send failed (an empty message) or, unchecked, a smaller type.
    if (!mpi_error_.empty()) throw Error(HETLB_MPI_E_MPI, mpi_error_, true);
    if (short_from_ >= 0)
      throw Error(HETLB_MPI_E_MPI, fmt::format("rank {}: fewer bytes from rank {} than planned ({} missing)", rank_,
                                               short_from_, -short_bytes_), true);
  }

  // A local argument error found by the caller, agreed like the others.
  bool refuse(int kind, std::string why) { return fail(kind, fmt::format("rank {}: {}", rank_, why)); }

 private:
  // The root's receives accept any tag from the other rank when the check is one-way (the empty
  // message that may replace a block says why in its tag).
  int block_tag() const { return one_way_ ? MPI_ANY_TAG : kTransferTag; }
  void received(int rc, const MPI_Status& status) {
    if (!one_way_) return;
    int error_class = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &error_class);
    if (rc != MPI_SUCCESS && error_class != MPI_ERR_TRUNCATE) return;  // nothing known of the block
    peer_tag_ = status.MPI_TAG;
    peer_truncated_ = rc != MPI_SUCCESS;
    int bytes = 0;
    if (!peer_truncated_) MPI_Get_count(&status, MPI_BYTE, &bytes);
    peer_bytes_ = bytes;
  }
  // The other rank's agreement values as the root reads them from what replaced or carried its block:
  // the same values that rank merges with the root's, so both reach one verdict.
  detail::Agreement::Values peer_values() const {
    const int peer = 1 - rank_;
    detail::Agreement::Values v{0, kNone, kNone};
    const int count = d_.counts[static_cast<std::size_t>(peer)];
    if (count == 0 || peer_tag_ == kNone || peer_tag_ == kFailedTag) return v;  // nothing sent, or nothing known
    if (peer_tag_ >= kKindTag) {
      v[0] = (size_ - peer) * 16 + (peer_tag_ - kKindTag);
      return v;
    }
    // Its send type's size: the block's length over its count (longer than planned: truncated here).
    const int s =
        peer_truncated_ ? (recv_size_ == kNone ? 1 : recv_size_ + 1) : static_cast<int>(peer_bytes_ / count);
    v[1] = s, v[2] = -s;
    return v;
  }

  bool fail(int kind, std::string why) {
    if (!kind_) kind_ = kind, why_ = std::move(why);
    return false;
  }
  bool note(int rc, const char* call) {
    if (rc == MPI_SUCCESS) return true;
    if (mpi_error_.empty()) {
      char text[MPI_MAX_ERROR_STRING] = "";
      int length = 0;
      MPI_Error_string(rc, text, &length);
      mpi_error_ = fmt::format("rank {}: {} failed: {}", rank_, call, std::string(text, static_cast<std::size_t>(length)));
    }
    return false;
  }
  // Which rank's type differs from the root's, known on every rank (error path).
  [[noreturn]] void type_mismatch(Direction direction) {
    std::vector<int> sizes(2 * static_cast<std::size_t>(size_));
    const int mine[2] = {send_size_, recv_size_};
    detail::check_mpi(MPI_Allgather(mine, 2, MPI_INT, sizes.data(), 2, MPI_INT, comm_), "MPI_Allgather", comm_);
    const bool scatter = direction == Direction::Scatter;
    const auto root = static_cast<std::size_t>(d_.root);
    const int reference = sizes[2 * root + (scatter ? 0 : 1)];
    for (std::size_t r = 0; r < static_cast<std::size_t>(size_); ++r) {
      const int other = sizes[2 * r + (scatter ? 1 : 0)];
      if (other != kNone && other != reference)
        throw Error(HETLB_MPI_E_TYPE,
                    fmt::format("rank {}: {} type of {} bytes per element, but the root's {} type has {}: the type "
                                "signatures must match (as in MPI_{}v)",
                                r, scatter ? "receive" : "send", other, scatter ? "send" : "receive", reference,
                                scatter ? "Scatter" : "Gather"),
                    rank_ == d_.root);
    }
    throw Error(HETLB_MPI_E_TYPE, "type sizes differ between ranks", rank_ == d_.root);
  }

  const Distribution& d_;
  MPI_Comm comm_;
  int rank_, size_;
  int kind_ = 0;
  std::string why_, mpi_error_;
  detail::Agreement::Values in_{}, out_{};
  int send_size_ = kNone, recv_size_ = kNone;
  int short_from_ = -1;
  long long short_bytes_ = 0;  // received minus expected, from short_from_ (negative)
  bool checks_ = true, started_ = false;
  bool one_way_ = false, send_failed_ = false, peer_truncated_ = false;
  int peer_tag_ = kNone;
  long long peer_bytes_ = 0;
  MPI_Request pending_ = MPI_REQUEST_NULL;  // the root's transfer in flight
  long long pending_bytes_ = 0;
  int pending_from_ = -1;
  detail::Agreement agreement_;
};

// The any layout (Distribution::permutation): the root's buffer in item order, its blocks packed
// through a copy. Element k of a type lies in [k extent + true_lb, + true_extent); types whose
// elements overlap (or start below their own slot) cannot be permuted element by element.
struct ElementSpan {
  MPI_Aint extent = 0, offset = 0, bytes = 0;
  bool ok = false;
};
ElementSpan span_of(MPI_Datatype type) {
  ElementSpan e;
  MPI_Aint lower = 0, true_lower = 0;
  if (type == MPI_DATATYPE_NULL || MPI_Type_get_extent(type, &lower, &e.extent) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(type, &true_lower, &e.bytes) != MPI_SUCCESS)
    return e;
  e.offset = true_lower;
  e.ok = e.extent > 0 && true_lower >= 0 && true_lower + e.bytes <= e.extent;
  return e;
}

// packed[j] <- items[perm[j]] (pack) or items[perm[j]] <- packed[j] (unpack), skipping [skip_from, skip_to).
void permute(const std::vector<std::int64_t>& perm, const ElementSpan& e, const char* from, char* to, bool pack,
             std::int64_t skip_from = 0, std::int64_t skip_to = 0) {
  for (std::size_t j = 0; j < perm.size(); ++j) {
    const auto sj = static_cast<std::int64_t>(j);
    if (sj >= skip_from && sj < skip_to) continue;
    const MPI_Aint packed = static_cast<MPI_Aint>(j) * e.extent + e.offset;
    const MPI_Aint item = static_cast<MPI_Aint>(perm[j]) * e.extent + e.offset;
    std::memcpy(to + (pack ? packed : item), from + (pack ? item : packed), static_cast<std::size_t>(e.bytes));
  }
}

MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lower = 0, extent = 0;
  if (type != MPI_DATATYPE_NULL) MPI_Type_get_extent(type, &lower, &extent);
  return extent;
}


}  // namespace

void Plan::scatter(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype) const {
  if (!valid()) throw Error(HETLB_MPI_E_PLAN, "the plan is empty (moved from, or never created)", true);
  Transfer t(d_, comm_, rank_, size_, checks_);
  const bool root = rank_ == d_.root;
  const int count = this->count();
  // MPI_IN_PLACE at the root, as in MPI_Scatterv: its block stays where it is in sendbuf.
  const bool in_place = root && recvbuf == MPI_IN_PLACE;
  int send_size = kNone, recv_size = kNone;
  const bool send_ok = t.side(root && d_.total() > 0, sendbuf, sendtype, "send", d_.total(), send_size);
  const bool recv_ok = t.side(count > 0 && !in_place, recvbuf, recvtype, "receive", count, recv_size);
  std::vector<char> packed;  // the any layout: the root's blocks in plan order
  const bool permuted = root && !d_.permutation.empty() && send_ok;
  const ElementSpan span = permuted ? span_of(sendtype) : ElementSpan{};
  if (permuted && !span.ok)
    t.refuse(HETLB_MPI_E_TYPE, "the plan's layout is any: the root's send type must have elements that do not overlap");
  t.start(send_size, recv_size, Direction::Scatter);
  if (root) {
    const char* base = static_cast<const char*>(sendbuf);
    const MPI_Aint extent = extent_of(sendtype);
    if (permuted && span.ok) {  // the root's own items stay where they are (in place, or copied below)
      packed.resize(static_cast<std::size_t>(span.extent * static_cast<MPI_Aint>(d_.permutation.size())));
      permute(d_.permutation, span, base, packed.data(), true);
      base = packed.data();
    }
    for (int r : d_.send_order) {  // the plan's order: decreasing bandwidth, root last
      const auto ru = static_cast<std::size_t>(r);
      if (d_.counts[ru] == 0) continue;
      const char* block = send_ok ? base + static_cast<MPI_Aint>(d_.displs[ru]) * extent : nullptr;
      if (r != rank_) t.isend(block, d_.counts[ru], sendtype, r, send_ok);
      else if (send_ok && recv_ok && !in_place) t.self_copy(block, sendtype, recvbuf, recvtype, count);  // overlaps the last send
    }
    t.wait_pending();
  } else if (count > 0) {
    t.receive(recvbuf, count, recvtype, recv_size, d_.root, recv_ok);
  }
  t.finish(Direction::Scatter);
}

void Plan::gather(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype) const {
  if (!valid()) throw Error(HETLB_MPI_E_PLAN, "the plan is empty (moved from, or never created)", true);
  Transfer t(d_, comm_, rank_, size_, checks_);
  const bool root = rank_ == d_.root;
  const int count = this->count();
  // MPI_IN_PLACE at the root, as in MPI_Gatherv: its block is already in place in recvbuf.
  const bool in_place = root && sendbuf == MPI_IN_PLACE;
  int send_size = kNone, recv_size = kNone;
  const bool send_ok = t.side(count > 0 && !in_place, sendbuf, sendtype, "send", count, send_size);
  const bool recv_ok = t.side(root && d_.total() > 0, recvbuf, recvtype, "receive", d_.total(), recv_size);
  std::vector<char> packed;  // the any layout: received in plan order, then put back in item order
  const bool permuted = root && !d_.permutation.empty() && recv_ok;
  const ElementSpan span = permuted ? span_of(recvtype) : ElementSpan{};
  if (permuted && !span.ok)
    t.refuse(HETLB_MPI_E_TYPE, "the plan's layout is any: the root's receive type must have elements that do not overlap");
  t.start(send_size, recv_size, Direction::Gather);
  if (root) {
    char* const user = static_cast<char*>(recvbuf);
    char* base = user;
    const MPI_Aint extent = extent_of(recvtype);
    if (permuted && span.ok) {
      packed.resize(static_cast<std::size_t>(span.extent * static_cast<MPI_Aint>(d_.permutation.size())));
      base = packed.data();
    }
    char* own_block = nullptr;  // the root's copy, waiting for the next receive to be in flight
    for (int r : d_.gather_order) {
      const auto ru = static_cast<std::size_t>(r);
      if (d_.counts[ru] == 0) continue;
      char* block = recv_ok ? base + static_cast<MPI_Aint>(d_.displs[ru]) * extent : nullptr;
      if (r == rank_) {
        if (send_ok && recv_ok && !in_place) own_block = block;
        continue;
      }
      t.ireceive(block, d_.counts[ru], recvtype, recv_size, r, recv_ok);
      if (own_block) t.self_copy(sendbuf, sendtype, own_block, recvtype, count), own_block = nullptr;
    }
    t.wait_pending();
    if (own_block) t.self_copy(sendbuf, sendtype, own_block, recvtype, count);
    if (permuted && span.ok) {  // in place, the root's own items are already at their places
      const std::int64_t mine = d_.displs[static_cast<std::size_t>(rank_)];
      permute(d_.permutation, span, packed.data(), user, false, in_place ? mine : 0, in_place ? mine + count : 0);
    }
  } else if (count > 0) {
    t.send(sendbuf, count, sendtype, d_.root, send_ok);
  }
  t.finish(Direction::Gather);
}

}  // namespace hetlb::mpi
