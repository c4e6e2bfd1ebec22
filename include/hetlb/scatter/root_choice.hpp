// Choice of the root processor, RR-4770 Section 3.4: the data sit on one machine (the platform's
// root); any processor may be the root, at the price of first moving the data there. The best root
// minimizes transfer + scatter makespan over the p candidates.
#pragma once
#include <functional>
#include <vector>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::scatter {

// Time to move `items` items from the data's holder to `candidate`: zero for the holder, the
// processor's `transfer` model when given, else its comm model (its link in a star network).
double root_transfer_cost(const Platform& platform, std::size_t candidate, Count items);

// Evaluates every candidate with `makespan_with_root` and returns the best (first on ties).
std::size_t choose_root(const Platform& platform, Count items,
                        const std::function<double(std::size_t)>& makespan_with_root,
                        std::vector<RootCandidate>* candidates);

}  // namespace hetlb::scatter
