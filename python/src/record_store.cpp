// Records of hetlb.mpi.Balancer (see record_store.hpp).
#include "record_store.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace hetlb::python {

void RecordStore::reserve(std::size_t n) {
  if (n <= capacity_) return;
  const std::size_t capacity = std::max({n, 2 * capacity_, std::size_t{16}});
  std::shared_ptr<std::byte[]> bytes(new std::byte[capacity * item_bytes_]);
  std::shared_ptr<std::uint64_t[]> ids(new std::uint64_t[capacity]);
  if (size_ > 0) {
    std::memcpy(bytes.get(), bytes_.get(), size_ * item_bytes_);
    std::memcpy(ids.get(), ids_.get(), size_ * sizeof(std::uint64_t));
  }
  bytes_ = std::move(bytes);  // a numpy view of the old block keeps it
  ids_ = std::move(ids);
  capacity_ = capacity;
}

void RecordStore::append(const std::byte* records, const std::uint64_t* ids, std::size_t count) {
  reserve(size_ + count);
  if (count > 0) {
    std::memcpy(bytes_.get() + size_ * item_bytes_, records, count * item_bytes_);
    std::memcpy(ids_.get() + size_, ids, count * sizeof(std::uint64_t));
  }
  for (std::size_t i = 0; i < count; ++i) slot_.emplace(ids[i], size_ + i);
  size_ += count;
}

void RecordStore::pack(std::uint64_t id, void* buffer) {
  const auto it = slot_.find(id);
  if (it == slot_.end()) {
    ++anomalies_;
    std::memset(buffer, 0, item_bytes_);
    return;
  }
  const std::size_t i = it->second, last = size_ - 1;
  std::memcpy(buffer, bytes_.get() + i * item_bytes_, item_bytes_);
  slot_.erase(it);
  if (i != last) {  // the last record fills the hole: the array stays contiguous
    std::memcpy(bytes_.get() + i * item_bytes_, bytes_.get() + last * item_bytes_, item_bytes_);
    ids_[i] = ids_[last];
    slot_[ids_[i]] = i;
  }
  size_ = last;
}

void RecordStore::unpack(std::uint64_t id, const void* buffer, std::size_t bytes) {
  if (bytes != item_bytes_ || slot_.count(id) > 0) {
    ++anomalies_;
    return;
  }
  append(static_cast<const std::byte*>(buffer), &id, 1);
}

std::size_t RecordStore::slot(std::uint64_t id) const {
  const auto it = slot_.find(id);
  return it == slot_.end() ? SIZE_MAX : it->second;
}

// SplitMix64's finaliser and MurmurHash3's fmix64: both bijections of 64-bit words.
std::uint64_t id_mix_a(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t id_mix_b(std::uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  return k ^ (k >> 33);
}

}  // namespace hetlb::python
