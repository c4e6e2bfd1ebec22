// Gather and scatter by id (docs/runtime.md, "Gather and scatter by id"): every rank's fixed-size
// payloads, given in the order of the ids it holds, into one array at the root ordered by id, and back.
// The root keeps where each id is; a rank sends its ids again only when they changed since the last
// call (or the root changed), so a frame whose owners did not move costs one MPI_Allgather of a few
// numbers per rank and the MPI_Gatherv (MPI_Scatterv) of the payloads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

namespace hetlb::mpi::detail {

class ByIdExchange {
 public:
  ByIdExchange() = default;
  ByIdExchange(const ByIdExchange&) = delete;
  ByIdExchange& operator=(const ByIdExchange&) = delete;
  ~ByIdExchange();  // frees its communicator (not after MPI_Finalize)

  // What a rank brings to a call: the ids it holds (in item order), the item count summed at start(),
  // and the verdict of its local checks (HETLB_DIFFUSION_SUCCESS or a code with its reason). Every
  // rank of `base` calls; a refusal is the same hetlb::mpi::Error on every rank (the lowest failing
  // rank's reason), nothing moved.
  struct Call {
    const std::vector<std::uint64_t>* ids = nullptr;
    long long total = 0;
    int status = 0;
    std::string reason;
    std::size_t bytes = 0;
    int root = 0;
  };
  // local: ids->size() payloads of `bytes` each; root_out (root): total payloads in ascending id order;
  // root_ids (root, may be null): the ids in that order.
  void gather(MPI_Comm base, Call call, const void* local, void* root_out, std::uint64_t* root_ids);
  // root_in (root): total payloads in ascending id order; local: receives the payloads of its ids.
  void scatter(MPI_Comm base, Call call, const void* root_in, void* local);

 private:
  // The layout agreed and the ids at the root brought up to date; returns the item count of this rank.
  int prepare(Call& call, const char* what);
  void open(MPI_Comm base);  // the exchange's own duplicate of the runtime's communicator, at the first call

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 0;
  std::vector<std::uint64_t> sent_;  // the ids this rank sent last, to root sent_root_
  int sent_root_ = -1;
  // Root: each rank's ids as last received, and where the k-th item of the gathered (rank) order goes.
  std::vector<std::vector<std::uint64_t>> held_;
  std::vector<std::size_t> position_;
  std::vector<std::uint64_t> ordered_ids_;
  bool cache_valid_ = false;
  int cached_root_ = -1;
  std::vector<int> counts_, displs_;
  std::vector<char> staging_;
};

}  // namespace hetlb::mpi::detail
