#include "plan_policy.hpp"

#include <chrono>
#include <stdexcept>

#include "hetlb/scatter/send_order.hpp"

namespace peers {

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
