#include "hetlb/scatter/solve.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/dynamic_programming.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/guaranteed_heuristic.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/root_choice.hpp"
#include "hetlb/scatter/uniform.hpp"

namespace hetlb::scatter {

Algorithm parse_algorithm(const std::string& name) { return find_algorithm(name).id; }

std::string to_string(Algorithm a) { return algorithm_entry(a).name; }

const std::vector<Algorithm>& all_algorithms() {
  static const std::vector<Algorithm> all = [] {
    std::vector<Algorithm> ids;
    for (const AlgorithmEntry& e : scatter_algorithms()) ids.push_back(e.id);
    return ids;
  }();
  return all;
}

Plan run_algorithm(Algorithm a, const Problem& pb, const ExactOptions& exact) { return algorithm_entry(a).run(pb, exact); }

namespace {

Result plan_with_root(const Platform& platform, const Request& request, std::size_t root, Count items) {
  Result r;
  std::vector<std::size_t> order;
  if (!request.order_list.empty()) {
    order = explicit_order(platform, root, request.order_list);
  } else if (request.order == OrderPolicy::Best) {
    OrderSearchOptions search = request.search;
    search.exact = request.exact;
    r.order_search = search_order(platform, root, items, search);
    order = r.order_search->order;
  } else {
    order = send_order(platform, root, request.order);
  }
  r.problem = make_problem(platform, order, items);
  r.plan = run_algorithm(request.algorithm, r.problem, request.exact);
  r.schedule = evaluate(r.problem, r.plan.items);
  r.root = platform.processors[root].name;
  r.transfer = root_transfer_cost(platform, root, items);
  return r;
}

}  // namespace

Result plan_scatter(const Platform& platform, const Request& request) {
  const auto start = std::chrono::steady_clock::now();
  const Count items = request.items > 0 ? request.items : platform.items;
  if (items <= 0) throw Error(fmt::format("items = {}: expected a positive number of items", items));
  Result result;
  if (request.root == "auto" && !request.order_list.empty())
    throw Error("root auto: an explicit order names the root's place; give --root NAME with it");
  if (request.root == "auto") {
    std::vector<RootCandidate> candidates;
    const RootBounds bounds(platform, items, request.order);
    // One feasibility test of the candidate's own order (not for `best`: other orders may be faster).
    const auto proves_above = [&](std::size_t r, double T) {
      if (request.order == OrderPolicy::Best) return false;
      try {
        return exact_proves_above(make_problem(platform, send_order(platform, r, request.order), items), T,
                                  request.exact);
      } catch (const Error&) {  // the candidate's own solve reports it
        return false;
      }
    };
    const std::size_t root = choose_root(
        platform, items, [&](std::size_t r) { return plan_with_root(platform, request, r, items).plan.makespan; },
        &candidates, &bounds, proves_above);
    result = plan_with_root(platform, request, root, items);
    result.root_candidates = std::move(candidates);
  } else {
    const std::size_t root = request.root.empty() ? platform.root : platform.index_of(request.root);
    result = plan_with_root(platform, request, root, items);
  }
  result.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace hetlb::scatter
