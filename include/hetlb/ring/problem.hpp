// A redistribution problem on a processor ring (Renard, Robert, Vivien, "Data redistribution
// algorithms for heterogeneous processor rings", Section 2). Processors are 0-based; P_{i+1 mod n}
// is the successor of P_i. P_i holds loads[i] items and must end with targets[i]; its unbalance is
// delta_i = L_i - T_i (sum zero). succ_cost[i] = c_{i,i+1}, the time to send one item from P_i to
// its successor; pred_cost[i] = c_{i,i-1}, to its predecessor (empty on a unidirectional ring).
#pragma once
#include <cstddef>
#include <vector>

#include "hetlb/model/cost_function.hpp"

namespace hetlb::ring {

struct Ring {
  std::vector<Count> loads;
  std::vector<Count> targets;
  std::vector<double> succ_cost;
  std::vector<double> pred_cost;  // empty: unidirectional ring

  std::size_t size() const { return loads.size(); }
  bool bidirectional() const { return !pred_cost.empty(); }
  Count unbalance(std::size_t i) const { return loads[i] - targets[i]; }
  std::size_t succ(std::size_t i) const { return i + 1 == size() ? 0 : i + 1; }
  std::size_t pred(std::size_t i) const { return i == 0 ? size() - 1 : i - 1; }
};

// Throws hetlb::Error (one line) unless: n >= 2, equal lengths, loads and targets >= 0 with equal
// sums, costs finite and > 0, pred_cost empty or of length n.
void validate(const Ring& ring);

// Every cost of the used directions is the same number.
bool is_homogeneous(const Ring& ring);

// The paper's standing hypothesis (Section 2): every processor holds at least one item before and
// after the redistribution (L_i >= 1 and L_i - delta_i >= 1). Lemmas 3 and 5 rely on it.
bool paper_hypothesis(const Ring& ring);

// delta_i for every processor.
std::vector<Count> unbalances(const Ring& ring);

// Makes the ring bidirectional with the same physical link both ways: c_{i+1,i} = c_{i,i+1}.
Ring with_symmetric_links(Ring ring);

}  // namespace hetlb::ring
