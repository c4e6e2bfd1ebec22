// The items a rank holds: 64-bit ids, and either their bytes (fixed size, contiguous, held by the
// balancer) or nothing (application-owned items, moved through pack/unpack callbacks).
// Wire format of a batch: per item, id (8 bytes), size (8 bytes, callbacks only), bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

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

  // Removes the last `count` items and appends them to `out` (packing application items).
  void pack_back(std::size_t count, std::vector<char>& out);
  // Removes up to `count` items toward `neighbour` and appends them to `out`: the callbacks' choice
  // when there is one (checked: ids held, distinct, at most count), else the last ones. Returns how many.
  std::size_t pack_for(int neighbour, std::size_t count, std::vector<char>& out);
  // Appends a batch produced by pack_back (unpacking application items). Returns the item count.
  std::size_t unpack(const char* data, std::size_t bytes);
  // Item count of a batch without unpacking it.
  std::size_t count(const char* data, std::size_t bytes) const;

 private:
  std::size_t item_bytes_;
  ItemCallbacks callbacks_;
  std::vector<std::uint64_t> ids_;
  std::vector<char> bytes_;
};

}  // namespace hetlb::mpi::detail
