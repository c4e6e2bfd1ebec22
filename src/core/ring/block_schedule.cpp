// Earliest contiguous blocks for a given flow: the generic schedule used when a planner's own
// construction does not apply (and, for a light flow, exactly Lemma 9's schedule).
#include "hetlb/ring/block_schedule.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb::ring {

std::vector<Count> flow_from_theta(const std::vector<Count>& prefix, Count theta) {
  std::vector<Count> f(prefix.size());
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = theta + prefix[i];
  return f;
}

namespace {
// Earliest start s >= lo of a block of x items on a link of cost c whose sender owns `own` items and
// is fed by a block of y items on a link of cost cin starting at sin (y = 0: not fed).
double earliest_start(double lo, Count x, double c, Count own, Count y, double sin, double cin) {
  double s = lo;
  if (x > own && y > 0) {
    const double xd = static_cast<double>(x), od = static_cast<double>(own);
    // Send k > own needs arrival k - own, at sin + (k - own) cin; check k = own + 1 and k = x.
    s = std::max(s, sin + cin - od * c);
    s = std::max(s, sin + static_cast<double>(x - own) * cin - (xd - 1) * c);
  }
  return s;
}
}  // namespace

std::vector<Transfer> block_schedule(const Ring& r, const std::vector<Count>& flow) {
  const std::size_t n = r.size();
  if (flow.size() != n) throw Error(fmt::format("ring: flow of length {} for {} processors", flow.size(), n));
  std::size_t zr = n, zl = n;  // a link with flow <= 0, and one with flow >= 0
  for (std::size_t i = 0; i < n; ++i) {
    if (flow[i] <= 0 && zr == n) zr = i;
    if (flow[i] >= 0 && zl == n) zl = i;
    if (flow[i] < 0 && !r.bidirectional())
      throw Error(fmt::format("ring: flow[{}] = {} on a unidirectional ring; expected >= 0", i, flow[i]));
  }
  if (zr == n || zl == n) throw Error("ring: circulating flow (every link carries items the same way)");
  const auto& cs = r.succ_cost;
  const auto& cp = r.pred_cost;
  std::vector<double> rs(n, 0.0), ls(n, 0.0);
  std::vector<Transfer> out;
  auto end_of_right = [&](std::size_t i) { return rs[i] + static_cast<double>(flow[i]) * cs[i]; };
  // Right-going paths (link i: P_i -> P_{i+1}), from the link after a non-right link, in path order.
  for (std::size_t k = 1; k <= n; ++k) {
    const std::size_t i = (zr + k) % n;
    if (flow[i] <= 0) continue;
    const std::size_t p = r.pred(i);  // link p feeds P_i when right-going
    rs[i] = flow[p] > 0 ? earliest_start(0.0, flow[i], cs[i], r.loads[i], flow[p], rs[p], cs[p]) : 0.0;
    out.push_back(Transfer{i, r.succ(i), true, flow[i], rs[i], end_of_right(i)});
  }
  // Left-going paths (link i: P_{i+1} -> P_i), from the link before a non-left link, in path order.
  for (std::size_t k = 1; k <= n; ++k) {
    const std::size_t i = (zl + n - k) % n;
    if (flow[i] >= 0) continue;
    const std::size_t q = r.succ(i);  // the sender
    const std::size_t feed = q;       // link q (P_{q+1} -> P_q) feeds P_q when left-going
    double lo = 0.0;
    if (flow[q] > 0) lo = std::max(lo, end_of_right(q));  // P_q sends right first
    const std::size_t in_left = r.pred(i);
    if (flow[in_left] > 0) lo = std::max(lo, end_of_right(in_left));  // P_i receives from the left first
    const Count x = -flow[i];
    ls[i] = flow[feed] < 0 ? earliest_start(lo, x, cp[q], r.loads[q], -flow[feed], ls[feed], cp[r.succ(q)]) : lo;
    out.push_back(Transfer{q, i, false, x, ls[i], ls[i] + static_cast<double>(x) * cp[q]});
  }
  return out;
}

}  // namespace hetlb::ring
