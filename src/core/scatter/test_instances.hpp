// Random small scatter instances and a brute-force oracle, shared by the scatter tests.
#pragma once
#include <functional>
#include <vector>

#include <rapidcheck.h>

#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter::testing {

enum class CostKind { Linear, Affine, Table, NonMonotone };

// p processors, the root last (zero comm). Non-root links sorted by per-item cost when `sorted`.
rc::Gen<Problem> gen_problem(CostKind kind, int max_p, Count max_n, bool sorted);

// Min over every distribution (n_1..n_p) of equation (2), and one distribution achieving it.
// `accept` filters distributions (e.g. every processor gets at least one item).
double brute_force(const Problem& pb, std::vector<Count>* best = nullptr,
                   const std::function<bool(const std::vector<Count>&)>& accept = {});

// Equality of two makespans computed with different floating-point associations.
bool same_time(double a, double b);

}  // namespace hetlb::scatter::testing
