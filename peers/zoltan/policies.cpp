#include "policies.hpp"

#include <chrono>
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

Outcome plan(Policy policy, const hetlb::Platform& platform, hetlb::Count n, const Objects& objects, MPI_Comm comm) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t p = platform.processors.size();
  Outcome out;
  out.policy = policy;
  out.send_order = hetlb::scatter::send_order(platform, platform.root, hetlb::scatter::OrderPolicy::Given);
  switch (policy) {
    case Policy::MpiScatter:
    case Policy::Divmod:
      out.owner = contiguous_owners(equal_counts(policy, p, platform.root, n));
      break;
    case Policy::ZoltanBlock:
    case Policy::ZoltanRcb: {
      if (objects.ids.size() != static_cast<std::size_t>(n)) throw std::runtime_error("Zoltan: objects and items differ");
      Partitioner zoltan(comm, policy == Policy::ZoltanBlock ? "BLOCK" : "RCB", speeds(platform), "PARTS");
      zoltan.partition(objects);
      const std::vector<int> parts = zoltan.parts_by_local_index();
      out.owner.assign(static_cast<std::size_t>(n), -1);
      for (std::size_t lid = 0; lid < parts.size(); ++lid) {
        const ZOLTAN_ID_TYPE id = objects.ids[lid];
        if (id >= out.owner.size() || out.owner[id] != -1)
          throw std::runtime_error("Zoltan: item " + std::to_string(id) + " assigned twice or out of range");
        out.owner[id] = parts[lid];
      }
      break;
    }
    case Policy::HetlbLp:
    case Policy::HetlbExact: {
      hetlb::scatter::Request request;
      request.algorithm = policy == Policy::HetlbLp ? hetlb::scatter::Algorithm::Lp : hetlb::scatter::Algorithm::Exact;
      request.order = hetlb::scatter::OrderPolicy::Bandwidth;
      request.items = n;
      const hetlb::scatter::Result result = hetlb::scatter::plan_scatter(platform, request);
      out.send_order = result.problem.platform_index;
      std::vector<hetlb::Count> by_rank(p, 0);
      for (std::size_t k = 0; k < out.send_order.size(); ++k) by_rank[out.send_order[k]] = result.plan.items[k];
      out.owner = contiguous_owners(by_rank);
      if (result.plan.rational_optimum && result.plan.guarantee) out.lp_bound = *result.plan.rational_optimum + *result.plan.guarantee;
      break;
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (out.owner.size() != static_cast<std::size_t>(n))
    throw std::runtime_error(to_string(policy) + ": " + std::to_string(out.owner.size()) + " owners for " + std::to_string(n) + " items");
  out.counts = counts_from_owners(out.owner, p);
  out.makespan = model_makespan(platform, out.send_order, out.counts);
  return out;
}

}  // namespace peers
