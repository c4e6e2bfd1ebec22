// Lower bounds on the optimal redistribution time tau.
#pragma once
#include <vector>

#include "hetlb/model/cost_function.hpp"
#include "hetlb/ring/problem.hpp"

namespace hetlb::ring {

// Lemma 1 (homogeneous) and Theorem 2's proof (heterogeneous), unidirectional ring: a slice with
// delta > 0 sends it over the link leaving its last processor, with delta < 0 receives -delta over the
// link entering its first. O(n) through the prefix sums.
double unidirectional_bound(const Ring& ring);

// Lemma 6, homogeneous bidirectional ring: c * max(max |delta_i|, max over slices of 2..n-1
// processors of ceil(|delta_{k,l}| / 2)). O(n).
double lemma6_bound(const Ring& ring);

// Lemma 12, heterogeneous bidirectional ring: the single-processor terms, plus (when `slices`) the
// terms of every slice of 2..n-1 processors, O(n^2).
double lemma12_bound(const Ring& ring, bool slices = true);

}  // namespace hetlb::ring
