// Items held by a rank and their wire format (see item_store.hpp).
#include "item_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/mpi/diffusion.h"
#include "item_selection.hpp"

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
  costs_.push_back(1.0);
  total_valid_ = false;
  if (index_valid_) index_[id] = ids_.size() - 1;
  if (item_bytes_ == 0) return;
  const std::size_t at = bytes_.size();
  bytes_.resize(at + item_bytes_);
  if (payload) std::memcpy(bytes_.data() + at, payload, item_bytes_);
}

double ItemStore::total_cost() const {
  if (non_unit_ == 0) return static_cast<double>(ids_.size());
  if (!total_valid_) {
    total_ = 0;
    for (double c : costs_) total_ += c;
    total_valid_ = true;
  }
  return total_;
}

double ItemStore::smallest_cost() const {
  if (costs_.empty()) return 0;
  return non_unit_ == 0 ? 1.0 : *std::min_element(costs_.begin(), costs_.end());
}

std::size_t ItemStore::wire_bytes(std::size_t i) const {
  return item_bytes_ > 0 ? 16 + item_bytes_ : 24 + callbacks_.size(ids_[i]);
}

namespace {
void check_cost(double cost, std::uint64_t id) {
  if (!(cost > 0) || !std::isfinite(cost))
    throw Error(HETLB_DIFFUSION_ERR_ARG,
                fmt::format("cost {} of item {}: expected a finite cost > 0 (load units)", cost, id));
}
}  // namespace

double ItemStore::set_cost(std::uint64_t id, double cost) {
  if (!index_valid_) {
    index_.clear();
    for (std::size_t i = 0; i < ids_.size(); ++i) index_[ids_[i]] = i;
    index_valid_ = true;
  }
  const auto it = index_.find(id);
  if (it == index_.end())
    throw Error(HETLB_DIFFUSION_ERR_ARG, fmt::format("set_cost({}): an item this rank does not hold; expected an id "
                                                     "of this rank's items", id));
  check_cost(cost, id);
  double& c = costs_[it->second];
  non_unit_ += (cost != 1.0 ? 1 : 0) - (c != 1.0 ? 1 : 0);
  const double change = cost - c;
  c = cost;
  total_valid_ = false;
  return change;
}

double ItemStore::set_costs(const double* costs, std::size_t n) {
  if (n != ids_.size() || (n > 0 && !costs))
    throw Error(HETLB_DIFFUSION_ERR_ARG,
                fmt::format("set_costs: {} costs for {} items; expected one per item held, in item order", n, ids_.size()));
  for (std::size_t i = 0; i < n; ++i) check_cost(costs[i], ids_[i]);
  double change = 0;
  non_unit_ = 0;
  for (std::size_t i = 0; i < n; ++i) {
    change += costs[i] - costs_[i];
    costs_[i] = costs[i];
    non_unit_ += costs[i] != 1.0 ? 1 : 0;
  }
  total_valid_ = false;
  return change;
}

void ItemStore::pack_at(std::size_t i, std::size_t size, std::vector<char>& out) {
  const std::uint64_t id = ids_[i];
  put(out, id);
  std::uint64_t cost_bits;
  std::memcpy(&cost_bits, &costs_[i], sizeof cost_bits);
  put(out, cost_bits);
  if (item_bytes_ > 0) {
    const auto from = bytes_.begin() + static_cast<std::ptrdiff_t>(i * item_bytes_);
    out.insert(out.end(), from, from + static_cast<std::ptrdiff_t>(item_bytes_));
  } else {
    put(out, size);
    const std::size_t at = out.size();
    out.resize(at + size);
    callbacks_.pack(id, out.data() + at);
  }
}

void ItemStore::remove(const std::vector<char>& leaving) {
  std::size_t first = 0;
  while (first < ids_.size() && !leaving[first]) ++first;  // the kept prefix stays in place
  std::size_t kept = first;
  for (std::size_t i = first; i < ids_.size(); ++i) {
    if (leaving[i]) {
      non_unit_ -= costs_[i] != 1.0 ? 1 : 0;
      continue;
    }
    ids_[kept] = ids_[i];
    costs_[kept] = costs_[i];
    if (item_bytes_ > 0)
      std::memmove(bytes_.data() + kept * item_bytes_, bytes_.data() + i * item_bytes_, item_bytes_);
    ++kept;
  }
  ids_.resize(kept);
  costs_.resize(kept);
  bytes_.resize(kept * item_bytes_);
  index_valid_ = false;
  total_valid_ = false;
}

namespace {
// Positions chosen for `amount`: unit costs in O(count), the last ones back first (as select_items).
std::vector<std::size_t> positions_for(const std::vector<double>& costs, std::size_t non_unit, double amount,
                                       const std::vector<char>& skip = {}) {
  if (non_unit > 0) return select_items(costs, amount, skip);
  std::vector<std::size_t> chosen;
  std::size_t available = costs.size();
  if (!skip.empty()) available = static_cast<std::size_t>(std::count(skip.begin(), skip.end(), 0));
  std::size_t n = unit_count(available, amount);
  for (std::size_t i = costs.size(); i-- > 0 && n > 0;)
    if (skip.empty() || !skip[i]) chosen.push_back(i), --n;
  return chosen;
}
}  // namespace

double ItemStore::reserve(double amount, std::vector<char>& taken) const {
  double cost = 0;
  for (std::size_t i : positions_for(costs_, non_unit_, amount, taken)) {
    taken[i] = 1;
    cost += costs_[i];
  }
  return cost;
}

ItemStore::Sent ItemStore::pack_for(int neighbour, double amount, std::vector<char>& out, BufferPool* pool) {
  std::vector<std::size_t> chosen = positions_for(costs_, non_unit_, amount);
  Sent sent;
  if (chosen.empty()) return sent;
  std::vector<char> leaving(ids_.size(), 0);
  if (callbacks_.choose) {  // the application picks at most as many items
    const std::size_t count = chosen.size();
    std::vector<std::uint64_t> ids(count);
    const std::size_t k = callbacks_.choose(neighbour, count, ids.data());
    if (k > count)
      throw Error(HETLB_DIFFUSION_ERR_ARG, fmt::format("choose(): {} ids for at most {}; expected at most count", k, count));
    ids.resize(k);
    std::unordered_map<std::uint64_t, std::size_t> where;
    for (std::size_t i = 0; i < ids_.size(); ++i) where[ids_[i]] = i;
    chosen.clear();
    for (std::uint64_t id : ids) {
      const auto it = where.find(id);
      if (it == where.end())
        throw Error(HETLB_DIFFUSION_ERR_ARG, "choose(): an id this rank does not hold; expected ids held by the rank");
      if (leaving[it->second]) throw Error(HETLB_DIFFUSION_ERR_ARG, "choose(): an id twice; expected distinct ids");
      leaving[it->second] = 1;
      chosen.push_back(it->second);
    }
  }
  // The batch's size first, so that `out` grows once (a buffer of the pool where one fits).
  std::vector<std::size_t> sizes(chosen.size(), item_bytes_);
  std::size_t needed = out.size();
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    if (item_bytes_ == 0) sizes[k] = callbacks_.size(ids_[chosen[k]]);
    needed += (item_bytes_ > 0 ? 16 : 24) + sizes[k];
  }
  if (out.capacity() < needed) {
    std::vector<char> larger = pool ? pool->take(needed) : std::vector<char>{};
    larger.reserve(needed);
    larger.assign(out.begin(), out.end());
    if (pool) pool->give(std::move(out));
    out = std::move(larger);
  }
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const std::size_t i = chosen[k];
    pack_at(i, sizes[k], out);
    leaving[i] = 1;
    ++sent.items;
    sent.cost += costs_[i];
  }
  remove(leaving);
  return sent;
}

std::size_t ItemStore::unpack(const char* data, std::size_t bytes) {
  std::size_t items = 0;
  for (std::size_t at = 0; at < bytes; ++items) {
    const std::uint64_t id = get(data + at);
    double cost;
    std::memcpy(&cost, data + at + 8, sizeof cost);
    at += 16;
    ids_.push_back(id);
    costs_.push_back(cost);
    non_unit_ += cost != 1.0 ? 1 : 0;
    total_valid_ = false;
    if (index_valid_) index_[id] = ids_.size() - 1;
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
  if (item_bytes_ > 0) return bytes / (16 + item_bytes_);
  std::size_t items = 0;
  for (std::size_t at = 0; at < bytes; ++items) at += 24 + get(data + at + 16);
  return items;
}

double ItemStore::cost(const char* data, std::size_t bytes) const {
  double sum = 0;
  for (std::size_t at = 0; at < bytes;) {
    double c;
    std::memcpy(&c, data + at + 8, sizeof c);
    sum += c;
    at += item_bytes_ > 0 ? 16 + item_bytes_ : 24 + get(data + at + 16);
  }
  return sum;
}

}  // namespace hetlb::mpi::detail
