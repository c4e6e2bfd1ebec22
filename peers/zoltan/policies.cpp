#include "policies.hpp"

#include <stdexcept>

#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/send_order.hpp"

namespace peers {

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> names{"mpi-scatter", "divmod",   "zoltan-block",
                                              "zoltan-rcb",  "hetlb-lp", "hetlb-exact"};
  return names;
}

Policy parse_policy(const std::string& name) {
  const std::vector<std::string>& names = policy_names();
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<Policy>(k);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown policy \"" + name + "\": expected one of " + list);
}

std::vector<Policy> parse_policies(const std::string& text) {
  std::vector<Policy> policies;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    policies.push_back(parse_policy(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return policies;
}

std::string to_string(Policy policy) { return policy_names()[static_cast<std::size_t>(policy)]; }

std::vector<double> speeds(const hetlb::Platform& platform) {
  std::vector<double> s;
  for (const hetlb::Processor& p : platform.processors) {
    const double slope = p.compute.asymptotic_slope();
    s.push_back(slope > 0 ? 1.0 / slope : 1e300);
  }
  return s;
}

std::vector<hetlb::Count> equal_counts(Policy policy, std::size_t processors, std::size_t root, hetlb::Count n) {
  const hetlb::Count p = static_cast<hetlb::Count>(processors), q = n / p, r = n % p;
  std::vector<hetlb::Count> counts(processors, q);
  if (policy == Policy::MpiScatter)
    counts[root] += r;
  else
    for (hetlb::Count k = 0; k < r; ++k) counts[static_cast<std::size_t>(k)] += 1;
  return counts;
}

std::vector<int> contiguous_owners(const std::vector<hetlb::Count>& counts_by_rank) {
  std::vector<int> owner;
  for (std::size_t k = 0; k < counts_by_rank.size(); ++k) owner.insert(owner.end(), static_cast<std::size_t>(counts_by_rank[k]), static_cast<int>(k));
  return owner;
}

std::vector<hetlb::Count> counts_from_owners(const std::vector<int>& owner, std::size_t processors) {
  std::vector<hetlb::Count> counts(processors, 0);
  for (std::size_t id = 0; id < owner.size(); ++id) {
    if (owner[id] < 0 || static_cast<std::size_t>(owner[id]) >= processors)
      throw std::runtime_error("item " + std::to_string(id) + " has no owner in [0, " + std::to_string(processors) + ")");
    ++counts[static_cast<std::size_t>(owner[id])];
  }
  return counts;
}

double model_makespan(const hetlb::Platform& platform, const std::vector<std::size_t>& send_order,
                      const std::vector<hetlb::Count>& counts_by_rank) {
  hetlb::Count n = 0;
  std::vector<hetlb::Count> in_order;
  for (std::size_t k : send_order) in_order.push_back(counts_by_rank[k]), n += counts_by_rank[k];
  return hetlb::scatter::makespan(hetlb::scatter::make_problem(platform, send_order, n), in_order);
}

}  // namespace peers
