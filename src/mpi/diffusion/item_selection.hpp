// Which items a hand-over sends to meet an amount of load (docs/runtime.md, "Item costs"). Pure (no
// MPI), unit-tested in item_selection_test.cpp.
//
// Rule: greedy by decreasing cost, the later position first among equal costs: an item is taken when
// its cost fits in what is left of the amount (cost <= left + 1e-9). So the sent total never exceeds
// the amount (+1e-9), and falls short of it by less than the cheapest item not sent (or every item is
// sent); what is not sent stays owed (the runtime carries it to the next hand-over). With every cost 1
// this is the last floor(amount + 1e-9) items, exactly the runtime's count before costs existed.
// Expensive items leave first: the fewest items (and bytes) for the amount.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

namespace hetlb::mpi::detail {

// Positions into `costs` (each > 0) of the items to send, in sending order; `skip` (empty, or one flag
// per item) marks items not available.
inline std::vector<std::size_t> select_items(const std::vector<double>& costs, double amount,
                                             const std::vector<char>& skip = {}) {
  std::vector<std::size_t> chosen;
  if (!(amount > 0)) return chosen;
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return costs[a] != costs[b] ? costs[a] > costs[b] : a > b;
  });
  double left = amount;
  for (std::size_t i : order) {
    if (!skip.empty() && skip[i]) continue;
    if (costs[i] > left + 1e-9) continue;
    chosen.push_back(i);
    left -= costs[i];
  }
  return chosen;
}

// The same with every cost 1, in O(count): the last floor(amount + 1e-9) of `held` items.
inline std::size_t unit_count(std::size_t held, double amount) {
  if (!(amount > 0)) return 0;
  return std::min(held, static_cast<std::size_t>(std::max(0.0, std::floor(amount + 1e-9))));
}

}  // namespace hetlb::mpi::detail
