// A scatter plan as JSON, the documented shape of `hetlb scatter --format json` (README.md):
// algorithm, method, items, makespan, lower_bound, optimal, order, root, first_finish, shares,
// solve_seconds, and when present rational_optimum, guarantee, transfer, total_time, order_search,
// root_candidates. Shared by the command line and the Python binding.
#pragma once
#include <nlohmann/json.hpp>

#include "hetlb/scatter/solve.hpp"

namespace hetlb::io {

nlohmann::json scatter_json(const scatter::Result& result);

}  // namespace hetlb::io
