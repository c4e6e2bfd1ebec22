// The records a rank holds for hetlb.mpi.Balancer: fixed-size records and their 64-bit ids in two
// contiguous arrays that numpy views. The diffusion runtime moves them through its item callbacks
// (hetlb::mpi::ItemCallbacks, docs/runtime.md "Items"): pack copies a record out and moves the last one
// into its slot, unpack appends. Growth allocates new arrays and never frees a block a view still
// holds (the blocks are shared_ptrs that each numpy view keeps), so a view kept past iteration_done()
// is stale, never dangling. No Python object is touched here: the callbacks run without the GIL.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace hetlb::python {

class RecordStore {
 public:
  explicit RecordStore(std::size_t item_bytes) : item_bytes_(item_bytes) {}

  // Appends `count` records (count x item_bytes bytes) with their ids.
  void append(const std::byte* records, const std::uint64_t* ids, std::size_t count);

  std::size_t size() const { return size_; }
  std::size_t item_bytes() const { return item_bytes_; }
  const std::shared_ptr<std::byte[]>& bytes() const { return bytes_; }
  const std::shared_ptr<std::uint64_t[]>& ids() const { return ids_; }

  // The runtime's callbacks. pack of an id not held writes zeros and counts an anomaly; unpack of an id
  // already held (or of the wrong size) keeps the record held and counts one.
  void pack(std::uint64_t id, void* buffer);
  void unpack(std::uint64_t id, const void* buffer, std::size_t bytes);
  std::uint64_t anomalies() const { return anomalies_; }
  // The position of the record `id` in bytes() and ids(); SIZE_MAX when it is not held.
  std::size_t slot(std::uint64_t id) const;

 private:
  void reserve(std::size_t n);

  std::size_t item_bytes_;
  std::size_t size_ = 0, capacity_ = 0;
  std::shared_ptr<std::byte[]> bytes_;
  std::shared_ptr<std::uint64_t[]> ids_;
  std::unordered_map<std::uint64_t, std::size_t> slot_;
  std::uint64_t anomalies_ = 0;
};

// Two independent 64-bit mixes of an id (bijections), summed modulo 2^64 over the ids a rank holds:
// a lost or duplicated id changes both sums, whatever the others.
std::uint64_t id_mix_a(std::uint64_t id);
std::uint64_t id_mix_b(std::uint64_t id);

}  // namespace hetlb::python
