// Gather and scatter by id (by_id.hpp), and the Diffusion calls that use it.
#include "by_id.hpp"

#include <algorithm>  // std::min, std::clamp
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "blocked_time.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "id_order.hpp"
#include "runtime.hpp"

namespace hetlb::mpi::detail {

namespace {
// One row per rank in the MPI_Allgather of every call.
enum Field { kCount, kChanged, kBytes, kStatus, kRoot, kRootReady, kFields };

// Throws on every rank the status and reason `from` holds (broadcast from it).
[[noreturn]] void throw_from(int from, int status, const std::string& reason, MPI_Comm comm) {
  int header[2] = {status, static_cast<int>(reason.size())};
  MPI_Bcast(header, 2, MPI_INT, from, comm);
  std::string text = reason;
  text.resize(static_cast<std::size_t>(header[1]));
  MPI_Bcast(text.data(), header[1], MPI_CHAR, from, comm);
  throw Error(header[0], text);
}

struct RowType {  // one payload of `bytes` bytes as an MPI datatype (counts in items, not bytes)
  MPI_Datatype type = MPI_DATATYPE_NULL;
  explicit RowType(std::size_t bytes) {
    MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type);
    MPI_Type_commit(&type);
  }
  ~RowType() { MPI_Type_free(&type); }
  RowType(const RowType&) = delete;
  RowType& operator=(const RowType&) = delete;
};
}  // namespace

ByIdExchange::~ByIdExchange() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void ByIdExchange::open(MPI_Comm base) {
  if (comm_ != MPI_COMM_NULL) return;
  // The duplicate waits for every rank, as the collective of the call does: the program's wait, not
  // its computing, for an untimed iteration_done() (blocked_time.hpp; MPI_Comm_dup is not wrapped).
  BlockedTime& blocked = blocked_time();
  const double from = MPI_Wtime();
  MPI_Comm_dup(base, &comm_);
  if (blocked.own_depth == 0) blocked.seconds += MPI_Wtime() - from;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

int ByIdExchange::prepare(Call& c, const char* what) {
  const std::vector<std::uint64_t>& ids = *c.ids;
  const int count = static_cast<int>(std::min<std::size_t>(ids.size(), INT_MAX));
  const bool changed = ids != sent_ || sent_root_ != c.root;
  const bool root_ready = rank_ == c.root && cache_valid_ && cached_root_ == c.root;
  const long long mine[kFields] = {count, changed ? 1 : 0, static_cast<long long>(c.bytes), c.status, c.root,
                                   root_ready ? 1 : 0};
  std::vector<long long> all(static_cast<std::size_t>(kFields) * size_);
  MPI_Allgather(mine, kFields, MPI_LONG_LONG, all.data(), kFields, MPI_LONG_LONG, comm_);
  const auto at = [&](int r, Field f) { return all[static_cast<std::size_t>(r) * kFields + f]; };

  for (int r = 0; r < size_; ++r)
    if (at(r, kStatus) != 0)
      throw_from(r, c.status, fmt::format("{}: rank {}: {}", what, rank_, c.reason), comm_);
  long long held = 0;
  for (int r = 0; r < size_; ++r) {
    if (at(r, kRoot) != at(0, kRoot))
      throw Error(HETLB_DIFFUSION_ERR_ARG, fmt::format("{}: root {} on rank 0, {} on rank {}: expected the same root "
                                                       "on every rank",
                                                       what, at(0, kRoot), at(r, kRoot), r));
    if (at(r, kBytes) != at(0, kBytes))
      throw Error(HETLB_DIFFUSION_ERR_ARG, fmt::format("{}: item_bytes {} on rank 0, {} on rank {}: expected the "
                                                       "same payload size on every rank",
                                                       what, at(0, kBytes), at(r, kBytes), r));
    held += at(r, kCount);
  }
  if (held != c.total)
    throw Error(HETLB_DIFFUSION_ERR_STATE, fmt::format("{}: {} items held now, {} at start(): expected every item "
                                                       "held by exactly one rank",
                                                       what, held, c.total));
  if (held > INT_MAX)
    throw Error(HETLB_DIFFUSION_ERR_ARG, fmt::format("{}: {} items: expected at most {}", what, held, INT_MAX));

  counts_.assign(size_, 0);
  displs_.assign(size_, 0);
  std::vector<int> id_counts(size_, 0);
  const bool ready = at(c.root, kRootReady) != 0;
  bool any = false;
  for (int r = 0; r < size_; ++r) {
    counts_[r] = static_cast<int>(at(r, kCount));
    if (r > 0) displs_[r] = displs_[r - 1] + counts_[r - 1];
    const bool sends = !ready || at(r, kChanged) != 0;
    id_counts[r] = sends ? counts_[r] : 0;
    any = any || sends;
  }
  if (!any) return count;

  // The ids of the ranks whose holdings changed, to the root, which rebuilds the positions.
  std::vector<int> id_displs(size_, 0);
  for (int r = 1; r < size_; ++r) id_displs[r] = id_displs[r - 1] + id_counts[r - 1];
  const bool root = rank_ == c.root;
  std::vector<std::uint64_t> arrived(root ? static_cast<std::size_t>(id_displs[size_ - 1] + id_counts[size_ - 1]) : 0);
  MPI_Gatherv(ids.data(), id_counts[rank_], MPI_UINT64_T, arrived.data(), id_counts.data(), id_displs.data(),
              MPI_UINT64_T, c.root, comm_);
  int status = HETLB_DIFFUSION_SUCCESS;
  std::string reason;
  if (root) {
    held_.resize(size_);
    for (int r = 0; r < size_; ++r)
      if (!ready || at(r, kChanged) != 0)
        held_[r].assign(arrived.begin() + id_displs[r], arrived.begin() + id_displs[r] + id_counts[r]);
    const auto n = static_cast<std::size_t>(held);
    std::vector<std::uint64_t> gathered;
    gathered.reserve(n);
    for (const auto& h : held_) gathered.insert(gathered.end(), h.begin(), h.end());
    if (!order_by_id(gathered, position_, ordered_ids_)) status = HETLB_DIFFUSION_ERR_STATE;
    if (status != HETLB_DIFFUSION_SUCCESS)
      reason = fmt::format("{}: an item id held by two ranks: expected every id held by exactly one rank", what);
    cache_valid_ = status == HETLB_DIFFUSION_SUCCESS;
    cached_root_ = c.root;
  }
  int verdict = status;
  MPI_Bcast(&verdict, 1, MPI_INT, c.root, comm_);
  if (verdict != HETLB_DIFFUSION_SUCCESS) throw_from(c.root, status, reason, comm_);
  sent_ = ids;
  sent_root_ = c.root;
  return count;
}

void ByIdExchange::gather(MPI_Comm base, Call c, const void* local, void* root_out, std::uint64_t* root_ids) {
  open(base);
  if (c.status == 0 && rank_ == c.root && root_out == nullptr && c.total > 0) {
    c.status = HETLB_DIFFUSION_ERR_ARG;
    c.reason = fmt::format("root_out = NULL at the root: expected room for {} items", c.total);
  }
  const int count = prepare(c, "gather_by_id");
  const RowType row(c.bytes);
  const bool root = rank_ == c.root;
  const std::size_t n = static_cast<std::size_t>(c.total);
  bool identity = root;
  for (std::size_t k = 0; identity && k < n; ++k) identity = position_[k] == k;
  char* into = static_cast<char*>(root_out);
  if (root && !identity) {
    staging_.resize(n * c.bytes);
    into = staging_.data();
  }
  MPI_Gatherv(local, count, row.type, into, counts_.data(), displs_.data(), row.type, c.root, comm_);
  if (!root) return;
  if (!identity)
    for (std::size_t k = 0; k < n; ++k)
      std::memcpy(static_cast<char*>(root_out) + position_[k] * c.bytes, staging_.data() + k * c.bytes, c.bytes);
  if (root_ids && n > 0) std::memcpy(root_ids, ordered_ids_.data(), n * sizeof(std::uint64_t));
}

void ByIdExchange::scatter(MPI_Comm base, Call c, const void* root_in, void* local) {
  open(base);
  if (c.status == 0 && rank_ == c.root && root_in == nullptr && c.total > 0) {
    c.status = HETLB_DIFFUSION_ERR_ARG;
    c.reason = fmt::format("root_in = NULL at the root: expected {} items", c.total);
  }
  const int count = prepare(c, "scatter_by_id");
  const RowType row(c.bytes);
  const bool root = rank_ == c.root;
  const std::size_t n = static_cast<std::size_t>(c.total);
  bool identity = root;
  for (std::size_t k = 0; identity && k < n; ++k) identity = position_[k] == k;
  const char* from = static_cast<const char*>(root_in);
  if (root && !identity) {
    staging_.resize(n * c.bytes);
    for (std::size_t k = 0; k < n; ++k)
      std::memcpy(staging_.data() + k * c.bytes, static_cast<const char*>(root_in) + position_[k] * c.bytes, c.bytes);
    from = staging_.data();
  }
  MPI_Scatterv(from, counts_.data(), displs_.data(), row.type, local, count, row.type, c.root, comm_);
}

}  // namespace hetlb::mpi::detail

namespace hetlb::mpi {

namespace {
using detail::ByIdExchange;
using detail::DiffusionRuntime;

// This rank's checks of a gather or scatter by id (agreed over every rank in the call).
ByIdExchange::Call checked(DiffusionRuntime& rt, const void* local, std::size_t item_bytes, int root) {
  ByIdExchange::Call c;
  c.ids = &rt.store.ids();
  c.total = rt.total_items();
  c.bytes = item_bytes;
  c.root = root;
  int ranks = 0;
  MPI_Comm_size(rt.hood.graph, &ranks);
  const auto refuse = [&c](int status, std::string reason) {
    if (c.status != 0) return;
    c.status = status;
    c.reason = std::move(reason);
  };
  if (!rt.started()) refuse(HETLB_DIFFUSION_ERR_STATE, "called before start(): expected a call after start()");
  if (rt.started() && !rt.finished() && !rt.options.bulk_synchronous)
    refuse(HETLB_DIFFUSION_ERR_STATE, "called while the asynchronous run goes on (items may be in flight): expected "
                                      "the bulk-synchronous mode, or a call after the end of the run");
  if (item_bytes == 0 || item_bytes > static_cast<std::size_t>(INT_MAX))
    refuse(HETLB_DIFFUSION_ERR_ARG, fmt::format("item_bytes = {}: expected 1 to {} bytes", item_bytes, INT_MAX));
  if (!local && rt.store.size() > 0 && !rt.store.owns_bytes())
    refuse(HETLB_DIFFUSION_ERR_ARG, "local = NULL with items the program keeps: expected its payloads, one per item "
                                    "held, in item order");
  if (!local && rt.store.size() > 0 && rt.store.owns_bytes() && item_bytes != rt.store.item_bytes())
    refuse(HETLB_DIFFUSION_ERR_ARG, fmt::format("local = NULL (the balancer's items) with item_bytes = {}: expected "
                                                "the items' size, {}",
                                                item_bytes, rt.store.item_bytes()));
  if (root < 0 || root >= ranks)
    refuse(HETLB_DIFFUSION_ERR_ARG, fmt::format("root {}: expected a rank from 0 to {}", root, ranks - 1));
  if (c.status != 0) c.root = std::clamp(root, 0, ranks - 1);  // the verdict travels from an existing rank
  return c;
}
}  // namespace

std::size_t Diffusion::total_items() const { return static_cast<std::size_t>(impl_->total_items()); }

void Diffusion::gather_by_id(const void* local, std::size_t item_bytes, void* root_out, int root,
                             std::uint64_t* root_ids) {
  DiffusionRuntime& rt = *impl_;
  ByIdExchange::Call c = checked(rt, local, item_bytes, root);
  const void* from = local ? local : (rt.store.size() > 0 && rt.store.owns_bytes() ? rt.store.item(0) : nullptr);
  rt.by_id.gather(rt.hood.graph, std::move(c), from, root_out, root_ids);
}

void Diffusion::scatter_by_id(const void* root_in, std::size_t item_bytes, void* local, int root) {
  DiffusionRuntime& rt = *impl_;
  ByIdExchange::Call c = checked(rt, local, item_bytes, root);
  void* into = local ? local : (rt.store.size() > 0 && rt.store.owns_bytes() ? rt.store.item(0) : nullptr);
  rt.by_id.scatter(rt.hood.graph, std::move(c), root_in, into);
}

}  // namespace hetlb::mpi
