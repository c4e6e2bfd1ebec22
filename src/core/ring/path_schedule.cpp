// Paths of one direction planned by Algorithm 2 (Lemma 5 per path), the two directions composed
// through their shared end points only (see block_schedule.hpp).
#include <algorithm>

#include "hetlb/error.hpp"
#include "hetlb/ring/block_schedule.hpp"
#include "hetlb/ring/unidirectional.hpp"

namespace hetlb::ring {

namespace {

// Plans the path procs[0] -> procs[1] -> ... with x[j] items from procs[j] to procs[j+1] over links of
// cost c[j], as a unidirectional ring closed by an unused link.
std::vector<Transfer> plan_path(const Ring& r, const std::vector<std::size_t>& procs, const std::vector<Count>& x,
                                const std::vector<double>& c, bool to_succ, std::size_t& budget, bool& capped) {
  const std::size_t m = x.size();
  Ring sub;
  for (std::size_t j = 0; j <= m; ++j) {
    const Count in = j > 0 ? x[j - 1] : 0, out = j < m ? x[j] : 0;
    sub.loads.push_back(r.loads[procs[j]]);
    sub.targets.push_back(r.loads[procs[j]] + in - out);
    sub.succ_cost.push_back(j < m ? c[j] : 1.0);
  }
  Plan p = plan_algorithm2(sub, std::max<std::size_t>(budget, 1));
  if (p.method.find("transfer limit") != std::string::npos) capped = true;
  budget -= std::min(budget, p.transfers.size());
  for (Transfer& t : p.transfers) {
    t.from = procs[t.from];
    t.to = procs[t.to];
    t.to_succ = to_succ;
  }
  return p.transfers;
}

}  // namespace

std::vector<Transfer> path_schedule(const Ring& r, const std::vector<Count>& flow, std::size_t max_transfers, bool* capped_out) {
  const std::size_t n = r.size();
  std::size_t zr = n, zl = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (flow[i] <= 0 && zr == n) zr = i;
    if (flow[i] >= 0 && zl == n) zl = i;
  }
  if (zr == n || zl == n) throw Error("ring: circulating flow (every link carries items the same way)");
  if (!r.bidirectional() && zl != 0) {
    for (Count f : flow)
      if (f < 0) throw Error("ring: left-going flow on a unidirectional ring");
  }
  std::size_t budget = max_transfers;
  bool capped = false;
  std::vector<Transfer> out;
  std::vector<double> right_send_end(n, 0.0), right_recv_end(n, 0.0);
  // Right-going paths, starting at 0.
  for (std::size_t k = 1; k <= n;) {
    const std::size_t i = (zr + k) % n;
    if (flow[i] <= 0) {
      ++k;
      continue;
    }
    std::vector<std::size_t> procs{i};
    std::vector<Count> x;
    std::vector<double> c;
    for (; k <= n && flow[(zr + k) % n] > 0; ++k) {
      const std::size_t l = (zr + k) % n;
      x.push_back(flow[l]);
      c.push_back(r.succ_cost[l]);
      procs.push_back(r.succ(l));
    }
    for (Transfer& t : plan_path(r, procs, x, c, true, budget, capped)) {
      right_send_end[t.from] = std::max(right_send_end[t.from], t.end);
      right_recv_end[t.to] = std::max(right_recv_end[t.to], t.end);
      out.push_back(t);
    }
  }
  // Left-going paths (link i carries -flow[i] items from P_{i+1} to P_i), delayed past the shared end points.
  for (std::size_t k = 1; k <= n;) {
    const std::size_t i = (zl + n - k) % n;
    if (flow[i] >= 0) {
      ++k;
      continue;
    }
    std::vector<std::size_t> procs{r.succ(i)};
    std::vector<Count> x;
    std::vector<double> c;
    for (; k <= n && flow[(zl + n - k) % n] < 0; ++k) {
      const std::size_t l = (zl + n - k) % n;
      x.push_back(-flow[l]);
      c.push_back(r.pred_cost[r.succ(l)]);
      procs.push_back(l);
    }
    std::vector<Transfer> ts = plan_path(r, procs, x, c, false, budget, capped);
    const double offset = std::max(right_send_end[procs.front()], right_recv_end[procs.back()]);
    for (Transfer& t : ts) {
      t.start += offset;
      t.end += offset;
      out.push_back(t);
    }
  }
  if (capped_out) *capped_out = capped;
  return out;
}

}  // namespace hetlb::ring
