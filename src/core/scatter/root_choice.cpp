// RR-4770, Section 3.4: choice of the root processor.
#include "hetlb/scatter/root_choice.hpp"

namespace hetlb::scatter {

double root_transfer_cost(const Platform& platform, std::size_t candidate, Count items) {
  if (candidate == platform.root) return 0.0;
  const Processor& p = platform.processors[candidate];
  return p.transfer ? (*p.transfer)(items) : p.comm(items);
}

std::size_t choose_root(const Platform& platform, Count items,
                        const std::function<double(std::size_t)>& makespan_with_root,
                        std::vector<RootCandidate>* candidates) {
  std::size_t best = platform.root;
  double best_total = 0;
  bool first = true;
  for (std::size_t r = 0; r < platform.processors.size(); ++r) {
    RootCandidate c{platform.processors[r].name, root_transfer_cost(platform, r, items), makespan_with_root(r)};
    if (first || c.total() < best_total) {
      best = r;
      best_total = c.total();
      first = false;
    }
    if (candidates) candidates->push_back(c);
  }
  return best;
}

}  // namespace hetlb::scatter
