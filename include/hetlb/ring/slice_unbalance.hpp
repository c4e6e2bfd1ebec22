// Slices of consecutive processors C_{k,l} and their unbalance delta_{k,l} (paper, Section 2).
// Every slice sum is a difference of two circular prefix sums F_l - F_{k-1} (F_{n-1} = 0), so the
// maximal |delta_{k,l}| (Lemma 1) is max F - min F: the circular maximum-subarray problem, O(n).
#pragma once
#include <cstddef>
#include <vector>

#include "hetlb/model/cost_function.hpp"

namespace hetlb::ring {

struct MaxSlice {
  Count value = 0;        // max over all slices (1..n processors) of |delta_{k,l}|
  std::size_t start = 0;  // a slice C_{start,end} with delta_{start,end} = +value (Algorithm 1, Step 2)
  std::size_t end = 0;
};

// F_i = delta_0 + ... + delta_i.
std::vector<Count> prefix_unbalance(const std::vector<Count>& delta);

// O(n): the maximal slice unbalance and a positive slice attaining it.
MaxSlice max_slice_unbalance(const std::vector<Count>& delta);

// O(n^2): the same by enumerating the n^2 slices (reference for the tests and benchmarks).
MaxSlice max_slice_unbalance_naive(const std::vector<Count>& delta);

// The flow of Algorithms 1 and 2: x_i = delta_{start,i} items over link i -> i+1, i.e. F_i - min F
// (all >= 0, zero on the link entering P_start).
std::vector<Count> unidirectional_flow(const std::vector<Count>& delta);

}  // namespace hetlb::ring
