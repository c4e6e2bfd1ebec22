// The items a rank holds: 64-bit ids, costs (load units, 1 unless set), and either their bytes (fixed
// size, contiguous, held by the balancer) or nothing (application-owned items, moved through
// pack/unpack callbacks).
// Wire format of a batch: per item, id (8 bytes), cost (8-byte double), size (8 bytes, callbacks only),
// bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "buffer_pool.hpp"
#include "hetlb/mpi/diffusion.hpp"

namespace hetlb::mpi::detail {

class ItemStore {
 public:
  ItemStore(std::size_t item_bytes, ItemCallbacks callbacks);

  void add(std::uint64_t id, const void* payload);
  std::size_t size() const { return ids_.size(); }
  std::uint64_t id(std::size_t i) const { return ids_[i]; }
  const std::vector<std::uint64_t>& ids() const { return ids_; }
  void* item(std::size_t i) { return bytes_.data() + i * item_bytes_; }
  bool owns_bytes() const { return item_bytes_ > 0; }
  bool chooses() const { return static_cast<bool>(callbacks_.choose); }  // the program picks leaving items
  std::size_t item_bytes() const { return item_bytes_; }

  double cost(std::size_t i) const { return costs_[i]; }
  double total_cost() const;     // the rank's load: the sum of its items' costs
  double smallest_cost() const;  // 0 without items
  // Bytes of item i in a batch (its header included; application items: size(id) called).
  std::size_t wire_bytes(std::size_t i) const;
  // Cost of the item `id` held (checked: held, cost finite and > 0); returns the change of the load.
  double set_cost(std::uint64_t id, double cost);
  // Costs of all items in their order (checked: size() values, each finite and > 0); the change.
  double set_costs(const double* costs, std::size_t n);

  // Removes the items to send for `amount` of load toward `neighbour` and appends them to `out`: those
  // of select_items (item_selection.hpp), or the callbacks' choice of at most that many when there is
  // one (checked: ids held, distinct, at most that many). Returns the items and the cost sent. `out`
  // grows once, to the batch's size, into a buffer of `pool` where given (buffer_pool.hpp).
  struct Sent {
    std::size_t items = 0;
    double cost = 0;
  };
  Sent pack_for(int neighbour, double amount, std::vector<char>& out, BufferPool* pool = nullptr);
  // The cost select_items would send for `amount` among the items not `taken` (one flag per item),
  // which it marks taken (the hand-over's per-neighbour amounts before they are netted).
  double reserve(double amount, std::vector<char>& taken) const;
  // Appends a batch produced by pack_for (unpacking application items). Returns the item count.
  std::size_t unpack(const char* data, std::size_t bytes);
  // Item count and cost sum of a batch without unpacking it.
  std::size_t count(const char* data, std::size_t bytes) const;
  double cost(const char* data, std::size_t bytes) const;

 private:
  std::size_t item_bytes_;
  ItemCallbacks callbacks_;
  // Item i, of `size` bytes (application items: size(id)), onto `out` (its bytes stay until compaction).
  void pack_at(std::size_t i, std::size_t size, std::vector<char>& out);
  void remove(const std::vector<char>& leaving);          // compacts, keeping the order of the rest
  std::vector<std::uint64_t> ids_;
  std::vector<double> costs_;
  std::size_t non_unit_ = 0;  // items whose cost is not 1 (none: the O(count) path of unit costs)
  // total_cost() summed once per change of the costs (the runtime reads it at every balancing period)
  mutable double total_ = 0;
  mutable bool total_valid_ = false;
  std::vector<char> bytes_;
  mutable std::unordered_map<std::uint64_t, std::size_t> index_;  // id -> position, built when needed
  mutable bool index_valid_ = false;
};

}  // namespace hetlb::mpi::detail
