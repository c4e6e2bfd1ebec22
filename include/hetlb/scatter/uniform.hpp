// What MPI_Scatter does: n/p items each, the n mod p remaining items one by one to the first
// processors in send order (RR-4770, Section 2.2). The baseline of every comparison.
#pragma once
#include "hetlb/scatter/plan.hpp"
#include "hetlb/scatter/problem.hpp"

namespace hetlb::scatter {
Plan solve_uniform(const Problem& problem);
}
