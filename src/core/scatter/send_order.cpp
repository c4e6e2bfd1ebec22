// RR-4770, Theorem 3 (processor ordering policy) and Section 4.4.
#include "hetlb/scatter/send_order.hpp"

#include <algorithm>

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

}  // namespace hetlb::scatter
