// Items held by a rank and their wire format (see item_store.hpp).
#include "item_store.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/mpi/diffusion.h"

namespace hetlb::mpi::detail {

namespace {
void put(std::vector<char>& out, std::uint64_t v) {
  const std::size_t at = out.size();
  out.resize(at + sizeof v);
  std::memcpy(out.data() + at, &v, sizeof v);
}
std::uint64_t get(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
}  // namespace

ItemStore::ItemStore(std::size_t item_bytes, ItemCallbacks callbacks)
    : item_bytes_(item_bytes), callbacks_(std::move(callbacks)) {}

void ItemStore::add(std::uint64_t id, const void* payload) {
  ids_.push_back(id);
  if (item_bytes_ == 0) return;
  const std::size_t at = bytes_.size();
  bytes_.resize(at + item_bytes_);
  if (payload) std::memcpy(bytes_.data() + at, payload, item_bytes_);
}

void ItemStore::pack_back(std::size_t count, std::vector<char>& out) {
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = ids_.size() - 1;
    const std::uint64_t id = ids_[i];
    put(out, id);
    if (item_bytes_ > 0) {
      out.insert(out.end(), bytes_.end() - static_cast<std::ptrdiff_t>(item_bytes_), bytes_.end());
      bytes_.resize(bytes_.size() - item_bytes_);
    } else {
      const std::size_t n = callbacks_.size(id);
      put(out, n);
      const std::size_t at = out.size();
      out.resize(at + n);
      callbacks_.pack(id, out.data() + at);
    }
    ids_.pop_back();
  }
}

std::size_t ItemStore::pack_for(int neighbour, std::size_t count, std::vector<char>& out) {
  count = std::min(count, ids_.size());
  if (count == 0) return 0;
  if (!callbacks_.choose) {
    pack_back(count, out);
    return count;
  }
  std::vector<std::uint64_t> chosen(count);
  const std::size_t k = callbacks_.choose(neighbour, count, chosen.data());
  if (k > count)
    throw Error(HETLB_DIFFUSION_ERR_ARG, fmt::format("choose(): {} ids for at most {}; expected at most count", k, count));
  chosen.resize(k);
  std::unordered_set<std::uint64_t> leaving(chosen.begin(), chosen.end());
  if (leaving.size() != k) throw Error(HETLB_DIFFUSION_ERR_ARG, "choose(): an id twice; expected distinct ids");
  std::size_t kept = 0;
  for (std::uint64_t id : ids_)
    if (!leaving.count(id)) ids_[kept++] = id;
  if (ids_.size() - kept != k)
    throw Error(HETLB_DIFFUSION_ERR_ARG, "choose(): an id this rank does not hold; expected ids held by the rank");
  ids_.resize(kept);
  for (std::uint64_t id : chosen) {
    put(out, id);
    const std::size_t n = callbacks_.size(id);
    put(out, n);
    const std::size_t at = out.size();
    out.resize(at + n);
    callbacks_.pack(id, out.data() + at);
  }
  return k;
}

std::size_t ItemStore::unpack(const char* data, std::size_t bytes) {
  std::size_t items = 0;
  for (std::size_t at = 0; at < bytes; ++items) {
    const std::uint64_t id = get(data + at);
    at += 8;
    ids_.push_back(id);
    if (item_bytes_ > 0) {
      bytes_.insert(bytes_.end(), data + at, data + at + item_bytes_);
      at += item_bytes_;
    } else {
      const std::size_t n = get(data + at);
      at += 8;
      callbacks_.unpack(id, data + at, n);
      at += n;
    }
  }
  return items;
}

std::size_t ItemStore::count(const char* data, std::size_t bytes) const {
  if (item_bytes_ > 0) return bytes / (8 + item_bytes_);
  std::size_t items = 0;
  for (std::size_t at = 0; at < bytes; ++items) at += 16 + get(data + at + 8);
  return items;
}

}  // namespace hetlb::mpi::detail
