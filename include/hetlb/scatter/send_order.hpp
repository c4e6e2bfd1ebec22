// Send orders (RR-4770, Section 4): the root always last; Theorem 3's policy serves the others by
// decreasing bandwidth to the root (increasing per-item communication cost).
#pragma once
#include <string>
#include <vector>

#include "hetlb/model/platform.hpp"

namespace hetlb::scatter {

enum class OrderPolicy { Given, Bandwidth, ReverseBandwidth, Best };

OrderPolicy parse_order_policy(const std::string& name);  // throws hetlb::Error naming the choices
std::string to_string(OrderPolicy policy);

// Platform indices in send order, `root` last. Bandwidth orders sort by the asymptotic per-item
// communication cost, then by the cost of one item, ties kept in file order. Not for Best.
std::vector<std::size_t> send_order(const Platform& platform, std::size_t root, OrderPolicy policy);

// Whether `text` names a policy (given, bandwidth, reverse-bandwidth, best) rather than a list.
bool is_order_policy(const std::string& text);

// An explicit send order: the non-root processors by name, comma-separated ("caseb,sekhmet,..."),
// each exactly once; the root is appended. Throws hetlb::Error naming an unknown or repeated name,
// the root inside the list, or a processor left out.
std::vector<std::size_t> explicit_order(const Platform& platform, std::size_t root, const std::string& list);

}  // namespace hetlb::scatter
