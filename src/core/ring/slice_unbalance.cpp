// Maximal slice unbalance (Lemma 1, Algorithm 1 Steps 1-2) as a circular maximum subarray.
#include "hetlb/ring/slice_unbalance.hpp"

#include <cstdlib>

namespace hetlb::ring {

std::vector<Count> prefix_unbalance(const std::vector<Count>& delta) {
  std::vector<Count> f(delta.size());
  Count s = 0;
  for (std::size_t i = 0; i < delta.size(); ++i) f[i] = s += delta[i];
  return f;
}

// delta_{k,l} = F_l - F_{k-1} (circularly, F_{-1} = F_{n-1} = 0): the largest is max F - min F,
// reached by the slice that starts right after the minimum and ends at the maximum.
MaxSlice max_slice_unbalance(const std::vector<Count>& delta) {
  const std::vector<Count> f = prefix_unbalance(delta);
  const std::size_t n = f.size();
  std::size_t imin = n - 1, imax = n - 1;  // F_{n-1} = 0 stands for F_{-1}
  for (std::size_t i = 0; i < n; ++i) {
    if (f[i] < f[imin]) imin = i;
    if (f[i] > f[imax]) imax = i;
  }
  MaxSlice m;
  m.value = f[imax] - f[imin];
  m.start = imin + 1 == n ? 0 : imin + 1;
  m.end = imax;
  if (m.value == 0) m.start = m.end = 0;
  return m;
}

MaxSlice max_slice_unbalance_naive(const std::vector<Count>& delta) {
  const std::size_t n = delta.size();
  MaxSlice m;
  for (std::size_t k = 0; k < n; ++k) {
    Count s = 0;
    for (std::size_t l = 0; l < n; ++l) {
      s += delta[(k + l) % n];
      if (s > m.value) m = MaxSlice{s, k, (k + l) % n};
      if (-s > m.value) {  // the complementary slice has unbalance -s
        if (l + 1 < n) m = MaxSlice{-s, (k + l + 1) % n, (k + n - 1) % n};
      }
    }
  }
  return m;
}

std::vector<Count> unidirectional_flow(const std::vector<Count>& delta) {
  std::vector<Count> f = prefix_unbalance(delta);
  Count lo = 0;  // F_{n-1} = 0
  for (Count x : f) lo = std::min(lo, x);
  for (Count& x : f) x -= lo;
  return f;
}

}  // namespace hetlb::ring
