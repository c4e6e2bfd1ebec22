// A scatter plan as JSON, the documented shape of `hetlb scatter --format json` (README.md):
// algorithm, method, items, makespan, lower_bound, optimal, order, root, first_finish, shares,
// solve_seconds, and when present rational_optimum, guarantee, transfer, total_time, order_search,
// root_candidates. Shared by the command line and the Python binding.
#pragma once
#include <ostream>

#include <nlohmann/json.hpp>

#include "hetlb/scatter/solve.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::io {

nlohmann::json scatter_json(const scatter::Result& result);

// Writes scatter_json(result), with the members of `extra` (an object) added at the top level, as its
// dump(indent) reads, without building the per-processor arrays as a JSON tree (100,000 processors in a
// fraction of the time).
void write_scatter_json(std::ostream& out, const scatter::Result& result, const nlohmann::json& extra, int indent = 2);

// The same with weights: "layout", each share's "work" (and "first", its first item, when contiguous),
// "assignment" (any: each item's position in "order"), "contiguous_makespan" (any) and "guarantee".
nlohmann::json weighted_scatter_json(const scatter::WeightedResult& result);

}  // namespace hetlb::io
