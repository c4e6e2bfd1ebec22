// Random scatter platforms for the comparison with Zoltan: processor 0 is the root (it keeps its
// share, no link); computing speeds uniform in [1, 6] (the Grid'5000 subset's 1x-6x spread), compute
// = 0.01 s / speed per item; each link's per-item cost = ratio x c x 0.01 / 3.5 with c uniform in
// [0.5, 1.5], so `ratio` is the mean per-item communication cost over the per-item computation cost
// of a processor of mean speed. The draws depend on (seed, processors, instance) only: every ratio
// scales the same platforms.
#pragma once
#include <cstdint>

#include "hetlb/model/platform.hpp"

namespace peers {

hetlb::Platform random_platform(std::size_t processors, double ratio, std::uint64_t seed, std::uint64_t instance,
                                hetlb::Count items);

}  // namespace peers
