// Independent schedule checker: it shares only the data types with the planners.
#include "hetlb/ring/verify.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace hetlb::ring {

namespace {

struct Block {
  double start;
  Count items;
  double cost;
  std::size_t index;  // in the transfer list
};

std::string where(const Transfer& t, std::size_t k) {
  return fmt::format("transfer {} (P_{} -> P_{}, {} items, [{}, {}])", k, t.from, t.to, t.items, t.start, t.end);
}

}  // namespace

std::optional<std::string> verify_schedule(const Ring& r, const std::vector<Transfer>& ts, double time) {
  const std::size_t n = r.size();
  double span = std::abs(time);
  for (const Transfer& t : ts) span = std::max(span, std::abs(t.end));
  const double eps = kVerifyTolerance * span;
  if (!std::isfinite(time) || time < 0) return fmt::format("the reported time {} is not a finite number >= 0", time);

  std::vector<std::vector<Block>> sends(n), recvs(n);
  for (std::size_t k = 0; k < ts.size(); ++k) {
    const Transfer& t = ts[k];
    if (t.from >= n || t.to >= n)
      return fmt::format("transfer {}: processor P_{} or P_{} does not exist (n = {})", k, t.from, t.to, n);
    double cost;
    if (t.to_succ) {
      if (t.to != (t.from + 1) % n) return where(t, k) + ": P_" + std::to_string(t.to) + " is not the successor of P_" + std::to_string(t.from);
      cost = r.succ_cost[t.from];
    } else {
      if (!r.bidirectional()) return where(t, k) + ": sends towards the predecessor on a unidirectional ring";
      if (t.to != (t.from + n - 1) % n) return where(t, k) + ": P_" + std::to_string(t.to) + " is not the predecessor of P_" + std::to_string(t.from);
      cost = r.pred_cost[t.from];
    }
    if (t.items < 1) return where(t, k) + ": expected at least 1 item";
    if (!std::isfinite(t.start) || !std::isfinite(t.end) || t.start < -eps) return where(t, k) + ": expected finite times from 0 on";
    const double len = static_cast<double>(t.items) * cost;
    if (std::abs(t.end - t.start - len) > eps + 1e-12 * len)
      return where(t, k) + fmt::format(": lasts {} but {} items at cost {} take {}", t.end - t.start, t.items, cost, len);
    sends[t.from].push_back(Block{t.start, t.items, cost, k});
    recvs[t.to].push_back(Block{t.start, t.items, cost, k});
  }
  auto by_start = [](const Block& a, const Block& b) { return a.start < b.start; };
  auto end_of = [](const Block& b) { return b.start + static_cast<double>(b.items) * b.cost; };
  // One-port: the sends of a processor never overlap, nor its receptions.
  for (std::size_t p = 0; p < n; ++p) {
    std::sort(sends[p].begin(), sends[p].end(), by_start);
    std::sort(recvs[p].begin(), recvs[p].end(), by_start);
    for (std::size_t k = 1; k < sends[p].size(); ++k)
      if (sends[p][k].start < end_of(sends[p][k - 1]) - eps)
        return fmt::format("one-port: P_{} sends in transfers {} and {} at the same time (from {} to {})", p,
                           sends[p][k - 1].index, sends[p][k].index, sends[p][k].start, end_of(sends[p][k - 1]));
    for (std::size_t k = 1; k < recvs[p].size(); ++k)
      if (recvs[p][k].start < end_of(recvs[p][k - 1]) - eps)
        return fmt::format("one-port: P_{} receives in transfers {} and {} at the same time (from {} to {})", p,
                           recvs[p][k - 1].index, recvs[p][k].index, recvs[p][k].start, end_of(recvs[p][k - 1]));
  }
  // Holdings: when P_p starts its k-th send it must hold L_p + (arrivals so far) - (k - 1) >= 1 items.
  // Between consecutive arrival breakpoints (first and last arrival of each reception) the arrivals
  // grow by at most one per send when the sender is faster, and by at least one when it is slower,
  // so the margin is monotone there: it suffices to check the sends next to the breakpoints and the
  // first and last send of each transfer.
  for (std::size_t p = 0; p < n; ++p) {
    const auto& in = recvs[p];
    std::vector<Count> before(in.size() + 1, 0);
    std::vector<double> first(in.size()), marks;
    for (std::size_t k = 0; k < in.size(); ++k) {
      before[k + 1] = before[k] + in[k].items;
      first[k] = in[k].start + in[k].cost;
      marks.push_back(first[k]);
      marks.push_back(end_of(in[k]));
    }
    auto arrived = [&](double t) -> Count {  // arrivals at times <= t (+ tolerance)
      const auto it = std::upper_bound(first.begin(), first.end(), t + eps);
      if (it == first.begin()) return 0;
      const std::size_t k = static_cast<std::size_t>(it - first.begin()) - 1;
      const double m = std::floor((t + eps - in[k].start) / in[k].cost);
      return before[k] + std::clamp<Count>(static_cast<Count>(std::min(m, 4e18)), 0, in[k].items);
    };
    Count sent = 0;
    for (const Block& s : sends[p]) {
      std::vector<Count> check{1, s.items};
      const double last = s.start + static_cast<double>(s.items - 1) * s.cost;
      auto lo = std::lower_bound(marks.begin(), marks.end(), s.start - s.cost);
      for (; lo != marks.end() && *lo <= last + s.cost; ++lo) {
        // The send index next to the breakpoint, counted in integers: a double counter stops
        // advancing past 2^53 items (issue 31).
        const double f = std::floor((*lo - s.start) / s.cost) + 1;
        const Count j0 = f <= 0 ? 0 : f >= static_cast<double>(s.items) ? s.items : static_cast<Count>(f);
        for (Count j = std::max<Count>(j0 - 1, 1); j <= j0 + 1 && j <= s.items; ++j) check.push_back(j);
      }
      for (Count j : check) {
        const double t = s.start + static_cast<double>(j - 1) * s.cost;
        const Count held = r.loads[p] + arrived(t) - (sent + j - 1);
        if (held < 1)
          return fmt::format("holdings: P_{} starts sending item {} of transfer {} at t = {} but holds {} items", p, j,
                             s.index, t, held);
      }
      sent += s.items;
    }
  }
  const std::vector<Count> fin = final_loads(n, r.loads, ts);
  for (std::size_t p = 0; p < n; ++p)
    if (fin[p] != r.targets[p])
      return fmt::format("final loads: P_{} ends with {} items; expected its target {}", p, fin[p], r.targets[p]);
  const double last = last_arrival(ts);
  if (std::abs(time - last) > eps)
    return fmt::format("time: the schedule reports {} but its last arrival is at {}", time, last);
  return std::nullopt;
}

}  // namespace hetlb::ring
