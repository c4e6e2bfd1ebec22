// RR-4770, Theorem 3 (processor ordering policy) and Section 4.4.
#include "hetlb/scatter/send_order.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::scatter {

OrderPolicy parse_order_policy(const std::string& name) {
  if (name == "given") return OrderPolicy::Given;
  if (name == "bandwidth") return OrderPolicy::Bandwidth;
  if (name == "reverse-bandwidth") return OrderPolicy::ReverseBandwidth;
  if (name == "best") return OrderPolicy::Best;
  throw Error("order '" + name + "': expected given, bandwidth, reverse-bandwidth or best");
}

std::string to_string(OrderPolicy policy) {
  switch (policy) {
    case OrderPolicy::Given: return "given";
    case OrderPolicy::Bandwidth: return "bandwidth";
    case OrderPolicy::ReverseBandwidth: return "reverse-bandwidth";
    case OrderPolicy::Best: return "best";
  }
  return {};
}

std::vector<std::size_t> send_order(const Platform& platform, std::size_t root, OrderPolicy policy) {
  if (policy == OrderPolicy::Best) throw Error("send_order: the best order is found by search, not sorted");
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < platform.processors.size(); ++i)
    if (i != root) order.push_back(i);
  if (policy != OrderPolicy::Given) {
    auto key = [&](std::size_t i) {
      const CostFunction& c = platform.processors[i].comm;
      return std::pair{c.asymptotic_slope(), c(Count{1})};
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    if (policy == OrderPolicy::ReverseBandwidth) {
      // Increasing bandwidth; equal keys keep file order so that the order stays deterministic.
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
    }
  }
  order.push_back(root);
  return order;
}

bool is_order_policy(const std::string& text) {
  return text == "given" || text == "bandwidth" || text == "reverse-bandwidth" || text == "best";
}

std::vector<std::size_t> explicit_order(const Platform& platform, std::size_t root, const std::string& list) {
  std::vector<std::size_t> order;
  std::vector<bool> seen(platform.processors.size(), false);
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, comma - start);
    start = comma + 1;
    if (name.empty()) throw Error(fmt::format("order '{}': empty processor name in the list", list));
    std::size_t idx = 0;
    try {
      idx = platform.index_of(name);
    } catch (const Error& e) {
      throw Error(fmt::format("order '{}': {}", list, e.what()));
    }
    if (idx == root)
      throw Error(fmt::format("order '{}': '{}' is the root, which always computes last; list the other processors",
                              list, name));
    if (seen[idx]) throw Error(fmt::format("order '{}': '{}' appears twice", list, name));
    seen[idx] = true;
    order.push_back(idx);
  }
  for (std::size_t i = 0; i < platform.processors.size(); ++i)
    if (i != root && !seen[i])
      throw Error(fmt::format("order '{}': processor '{}' is missing (list every processor but the root)", list,
                              platform.processors[i].name));
  order.push_back(root);
  return order;
}

}  // namespace hetlb::scatter
