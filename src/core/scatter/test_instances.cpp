#include "test_instances.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hetlb/scatter/evaluate.hpp"

namespace hetlb::scatter::testing {

namespace {
// Costs on a grid of 1/8 steps keep ties frequent, which is where off-by-one errors hide.
rc::Gen<double> gen_slope() {
  return rc::gen::map(rc::gen::inRange(0, 40), [](int k) { return k / 8.0; });
}

rc::Gen<CostFunction> gen_cost(CostKind kind, bool zero_allowed) {
  switch (kind) {
    case CostKind::Linear:
      return rc::gen::map(gen_slope(), [zero_allowed](double a) { return CostFunction::linear(zero_allowed ? a : a + 0.125); });
    case CostKind::Affine:
      return rc::gen::map(rc::gen::pair(gen_slope(), gen_slope()),
                          [](std::pair<double, double> v) { return CostFunction::affine(v.first, v.second); });
    case CostKind::Table:
    case CostKind::NonMonotone:
      return rc::gen::map(rc::gen::mapcat(rc::gen::inRange(1, 5), [](int k) {
                            return rc::gen::container<std::vector<int>>(static_cast<std::size_t>(k), rc::gen::inRange(0, 30));
                          }),
                          [kind](std::vector<int> raw) {
                            std::vector<std::pair<double, double>> pts;
                            double t = 0;
                            int x = 0;
                            for (std::size_t k = 0; k < raw.size(); ++k) {
                              x += 1 + raw[k] % 3;
                              if (kind == CostKind::Table) t += raw[k] / 8.0;
                              else t = raw[k] / 4.0;  // arbitrary non-negative
                              pts.emplace_back(x, t);
                            }
                            return CostFunction::table(pts);
                          });
  }
  return rc::gen::just(CostFunction::linear(1));
}
}  // namespace

rc::Gen<Problem> gen_problem(CostKind kind, int max_p, Count max_n, bool sorted) {
  return rc::gen::exec([=] {
    const int p = *rc::gen::inRange(1, max_p + 1);
    Problem pb;
    pb.items = *rc::gen::inRange<Count>(1, max_n + 1);
    for (int i = 0; i < p; ++i) {
      pb.names.push_back("P" + std::to_string(i + 1));
      pb.platform_index.push_back(static_cast<std::size_t>(i));
      pb.compute.push_back(*gen_cost(kind, false));
      pb.comm.push_back(i + 1 == p ? CostFunction::linear(0) : *gen_cost(kind, true));
    }
    if (sorted && p > 1) {
      // Linear links sorted by per-item cost (the fast path of `exact`).
      std::vector<double> c;
      for (int i = 0; i + 1 < p; ++i) c.push_back(*gen_slope());
      std::sort(c.begin(), c.end());
      for (int i = 0; i + 1 < p; ++i) pb.comm[static_cast<std::size_t>(i)] = CostFunction::linear(c[static_cast<std::size_t>(i)]);
    }
    return pb;
  });
}

double brute_force(const Problem& pb, std::vector<Count>* best,
                   const std::function<bool(const std::vector<Count>&)>& accept) {
  const std::size_t p = pb.size();
  std::vector<Count> cur(p, 0);
  double best_time = INFINITY;
  std::function<void(std::size_t, Count)> rec = [&](std::size_t i, Count left) {
    if (i + 1 == p) {
      cur[i] = left;
      if (accept && !accept(cur)) return;
      const double t = makespan(pb, cur);
      if (t < best_time) {
        best_time = t;
        if (best) *best = cur;
      }
      return;
    }
    for (Count x = 0; x <= left; ++x) {
      cur[i] = x;
      rec(i + 1, left - x);
    }
  };
  rec(0, pb.items);
  return best_time;
}

bool same_time(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

}  // namespace hetlb::scatter::testing
