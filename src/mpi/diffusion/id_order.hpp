// Where each gathered item goes in an array ordered by id (the root's side of gather_by_id, by_id.hpp).
// Pure: ids 0..n-1 (the usual case) go to position id in O(n), other ids by sorting. Returns false when
// an id appears twice (then `position` and `ordered` are unspecified).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace hetlb::mpi::detail {

// position[k]: the place of gathered[k] in ascending id order; ordered: the ids in that order.
inline bool order_by_id(const std::vector<std::uint64_t>& gathered, std::vector<std::size_t>& position,
                        std::vector<std::uint64_t>& ordered) {
  const std::size_t n = gathered.size();
  position.assign(n, 0);
  ordered.assign(n, 0);
  if (std::all_of(gathered.begin(), gathered.end(), [n](std::uint64_t id) { return id < n; })) {
    for (std::size_t k = 0; k < n; ++k) position[k] = static_cast<std::size_t>(gathered[k]);
  } else {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return gathered[a] < gathered[b]; });
    for (std::size_t k = 0; k < n; ++k) position[order[k]] = k;
  }
  // Every id once: no two items in one place (ids 0..n-1), ids strictly increasing (sorted).
  std::vector<char> seen(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (seen[position[k]]) return false;
    seen[position[k]] = 1;
    ordered[position[k]] = gathered[k];
  }
  for (std::size_t k = 1; k < n; ++k)
    if (ordered[k - 1] >= ordered[k]) return false;
  return true;
}

}  // namespace hetlb::mpi::detail
