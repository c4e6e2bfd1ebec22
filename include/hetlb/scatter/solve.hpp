// One entry point for the scatter planners: algorithm + send order + root (RR-4770, Sections 3-4).
#pragma once
#include <string>
#include <vector>

#include "hetlb/model/platform.hpp"
#include <optional>

#include "hetlb/scatter/algorithm_registry.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/exact.hpp"
#include "hetlb/scatter/order_search.hpp"
#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"
#include "hetlb/scatter/send_order.hpp"

namespace hetlb::scatter {

// Shorthands over the registry (algorithm_registry.hpp).
Algorithm parse_algorithm(const std::string& name);  // throws hetlb::Error naming the choices
std::string to_string(Algorithm algorithm);
const std::vector<Algorithm>& all_algorithms();

Plan run_algorithm(Algorithm algorithm, const Problem& problem, const ExactOptions& exact = {});

struct Request {
  Algorithm algorithm = Algorithm::Exact;
  OrderPolicy order = OrderPolicy::Bandwidth;  // `best`: search_order (order_search.hpp)
  std::string order_list;  // non-empty: an explicit order, "name,name,..." (overrides `order`)
  std::string root;        // empty: the platform's root; "auto": Section 3.4's choice
  Count items = 0;         // 0: the platform's default
  ExactOptions exact;      // e.g. dp_fallback
  OrderSearchOptions search;
};

struct RootCandidate {
  std::string name;
  double transfer = 0;  // moving the data from its holder to this root
  double makespan = 0;  // the scatter with this root (a lower bound on it when bound_only)
  bool bound_only = false;  // not solved: its transfer + lower bound exceeds the chosen root's total
  double total() const { return transfer + makespan; }
};

struct Result {
  Plan plan;
  Problem problem;
  Schedule schedule;
  std::string root;
  double transfer = 0;  // added to the makespan when the root is not the data's holder
  std::vector<RootCandidate> root_candidates;  // filled by --root auto
  std::optional<OrderSearch> order_search;     // filled by the best order
  double solve_seconds = 0;
};

Result plan_scatter(const Platform& platform, const Request& request);

}  // namespace hetlb::scatter
