// Algorithm 2 of the paper (heterogeneous unidirectional ring): P_{start+l} sends
// delta_{start,start+l} items one by one, as soon as possible. Lemma 5: the time is
// max_l delta_{start,start+l} c_{start+l,start+l+1}, Theorem 2's lower bound, hence optimal.
#include <algorithm>
#include <cmath>
#include <optional>

#include "hetlb/ring/block_schedule.hpp"
#include "hetlb/ring/bounds.hpp"
#include "hetlb/ring/slice_unbalance.hpp"
#include "hetlb/ring/unidirectional.hpp"

namespace hetlb::ring {

namespace {

struct Run {
  double start;  // first send
  Count items;   // back-to-back sends
};

// Item-by-item as-soon-as-possible forwarding, represented by runs: P_i's k-th send starts at
// max(end of send k-1, time it holds a k-th item) where its own L_i items are held at 0 and the j-th
// arrival is held at its arrival. nullopt when more than max_runs runs are needed.
std::optional<std::vector<Transfer>> asap_schedule(const Ring& r, const std::vector<Count>& x, std::size_t max_runs) {
  if (std::find(x.begin(), x.end(), Count{0}) == x.end()) return std::nullopt;
  const std::size_t n = r.size();
  std::size_t z = 0;
  while (x[z] != 0) ++z;  // the flow of Algorithm 2 vanishes on the link entering P_start
  std::vector<Transfer> out;
  std::vector<Run> in, cur;  // runs of the predecessor (arrivals), and of the current processor
  for (std::size_t k = 1; k <= n; ++k) {
    const std::size_t i = (z + k) % n;
    cur.clear();
    const double c = r.succ_cost[i];
    if (x[i] > 0) {
      const double cin = r.succ_cost[r.pred(i)];
      const Count own = std::min(r.loads[i], x[i]);
      double end = 0;  // end of the current run
      auto open = [&](double s, Count m) {
        cur.push_back(Run{s, m});
        end = s + static_cast<double>(m) * c;
      };
      auto extend = [&](Count m) {
        cur.back().items += m;
        end = cur.back().start + static_cast<double>(cur.back().items) * c;
      };
      if (own > 0) open(0.0, own);
      Count rest = x[i] - own;
      for (const Run& a : in) {
        if (rest == 0) break;
        const Count m = std::min(rest, a.items);
        rest -= m;
        auto arrival = [&](Count j) { return a.start + static_cast<double>(j + 1) * cin; };  // j-th, 0-based
        Count j = 0;
        if (!cur.empty() && arrival(0) <= end) {
          // Busy: items queue while end + j c >= arrival(j).
          Count busy = m;
          if (c < cin) {
            const double q = std::floor((end - arrival(0)) / (cin - c));
            busy = q + 1 >= static_cast<double>(m) ? m : static_cast<Count>(q) + 1;
            while (busy > 1 && end + static_cast<double>(busy - 1) * c < arrival(busy - 1)) --busy;
            while (busy < m && end + static_cast<double>(busy) * c >= arrival(busy)) ++busy;
          }
          extend(busy);
          j = busy;
        }
        if (j < m) {
          if (c >= cin) {
            open(arrival(j), m - j);  // never idle again within this run of arrivals
          } else {
            for (; j < m; ++j) {  // faster than the feed: one item per arrival
              open(arrival(j), 1);
              if (cur.size() > max_runs) return std::nullopt;
            }
          }
        }
        if (out.size() + cur.size() > max_runs) return std::nullopt;
      }
      for (const Run& u : cur)
        out.push_back(Transfer{i, r.succ(i), true, u.items, u.start, u.start + static_cast<double>(u.items) * c});
    }
    in.swap(cur);
  }
  return out;
}

bool meets(double time, double bound) { return time <= bound * (1 + 1e-12) + 1e-300; }

// Paced blocks: with tau = max_j x_j c_j, link j sends its items in blocks of b_j, block k ending at
// (items in blocks 1..k) * tau / x_j. Item m then leaves between (m-1) tau / x_j (the uniform-rate
// "fluid" schedule) and that plus b_j tau / x_j, so it arrives at most b_j + 1 items' worth of fluid
// time late. In the fluid schedule P_q holds (1-u) L_q + u T_q >= min(L_q, T_q) items at fraction u of
// the time, so P_q's sends are always covered when min(L_q, T_q) >= 1 + b_j + c_j x_j / tau for the
// link j feeding it (when it forwards at all, x_q > L_q). Every link ends at tau: Theorem 2's bound.
// nullopt when some forwarder holds too few items for b_j >= 1, or beyond max_transfers.
std::optional<std::vector<Transfer>> paced_schedule(const Ring& r, const std::vector<Count>& x, std::size_t max_transfers) {
  const std::size_t n = r.size();
  double tau = 0;
  for (std::size_t j = 0; j < n; ++j) tau = std::max(tau, static_cast<double>(x[j]) * r.succ_cost[j]);
  std::vector<Count> block(n, 0);
  std::size_t total = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (x[j] == 0) continue;
    const std::size_t q = r.succ(j);
    block[j] = x[j];
    if (x[q] > r.loads[q]) {  // P_q forwards items of link j
      const double margin = static_cast<double>(std::min(r.loads[q], r.targets[q])) - 1 -
                            static_cast<double>(x[j]) * r.succ_cost[j] / tau;
      if (margin < 1) return std::nullopt;
      block[j] = std::min<Count>(x[j], static_cast<Count>(std::floor(margin)));
    }
    total += static_cast<std::size_t>((x[j] + block[j] - 1) / block[j]);
    if (total > max_transfers) return std::nullopt;
  }
  std::vector<Transfer> out;
  out.reserve(total);
  for (std::size_t j = 0; j < n; ++j) {
    const double c = r.succ_cost[j], per = tau / static_cast<double>(x[j]);
    for (Count done = 0; done < x[j];) {
      const Count size = std::min(block[j], x[j] - done);
      done += size;
      const double end = static_cast<double>(done) * per;
      out.push_back(Transfer{j, r.succ(j), true, size, end - static_cast<double>(size) * c, end});
    }
  }
  return out;
}

}  // namespace

std::optional<std::vector<Transfer>> algorithm2_asap(const Ring& ring, const std::vector<Count>& x,
                                                     std::size_t max_transfers) {
  return asap_schedule(ring, x, max_transfers);
}

// Time reversal: running a valid schedule backwards (every transfer reversed, t -> T - t) is a valid
// schedule of the problem with loads and targets exchanged and the ring's direction reversed (a
// processor's holdings are the same function of time, read backwards). Processor k of the reversed
// ring is P_{n-1-k}; its link to k+1 is the link P_{n-2-k} -> P_{n-1-k} of the original ring.
namespace {

Ring reversed(const Ring& r) {
  const std::size_t n = r.size();
  Ring q;
  for (std::size_t k = 0; k < n; ++k) {
    q.loads.push_back(r.targets[n - 1 - k]);
    q.targets.push_back(r.loads[n - 1 - k]);
    q.succ_cost.push_back(r.succ_cost[(2 * n - 2 - k) % n]);
  }
  return q;
}

std::vector<Count> reversed_flow(const std::vector<Count>& x) {
  const std::size_t n = x.size();
  std::vector<Count> y(n);
  for (std::size_t k = 0; k < n; ++k) y[k] = x[(2 * n - 2 - k) % n];
  return y;
}

std::vector<Transfer> unreversed(std::vector<Transfer> ts, std::size_t n) {
  const double T = last_arrival(ts);
  for (Transfer& t : ts) {
    const std::size_t from = n - 1 - t.to, to = n - 1 - t.from;  // Q_k -> Q_{k+1} is P_{n-2-k} -> P_{n-1-k}
    t = Transfer{from, to, true, t.items, T - t.end, T - t.start};
  }
  return ts;
}

}  // namespace

Plan plan_algorithm2(const Ring& ring, std::size_t max_transfers) {
  const std::vector<Count> x = unidirectional_flow(unbalances(ring));  // x_i = delta_{start,i}
  const std::size_t n = ring.size();
  Plan p;
  p.algorithm = "algorithm-2";
  p.flow = x;
  p.lower_bound = unidirectional_bound(ring);  // Theorem 2's bound
  p.lemma1_bound = p.lower_bound;
  auto consider = [&](std::vector<Transfer> ts, const char* method) {
    const double t = last_arrival(ts);
    if (!p.transfers.empty() || p.method.size()) {
      const bool better = t < p.time * (1 - 1e-12) || (meets(t, p.time) && ts.size() < p.transfers.size());
      if (!better) return;
    }
    p.transfers = std::move(ts);
    p.time = t;
    p.method = method;
  };
  // Compact candidates first: one block per link, as early as possible, or as late as possible (the
  // earliest blocks of the time-reversed problem).
  const Ring rev = reversed(ring);
  const std::vector<Count> xr = reversed_flow(x);
  consider(block_schedule(ring, x), "Algorithm 2 flow, one block per link, each as early as possible");
  if (!meets(p.time, p.lower_bound))
    consider(unreversed(block_schedule(rev, xr), n), "Algorithm 2 flow, one block per link, each as late as possible");
  std::size_t asap_limit = max_transfers;
  if (!meets(p.time, p.lower_bound)) {
    if (auto paced = paced_schedule(ring, x, max_transfers)) {
      asap_limit = std::min(asap_limit, paced->size());  // item-by-item forwarding only if it is smaller
      consider(std::move(*paced), "Algorithm 2 flow, paced blocks ending at k b tau / x (time = Theorem 2's bound)");
    }
  }
  if (!meets(p.time, p.lower_bound) || asap_limit > 4 * n) {
    // Algorithm 2 as written; also run backwards, which may need fewer transfers.
    bool capped = false;
    const std::size_t max_transfers = asap_limit;
    if (auto asap = asap_schedule(ring, x, max_transfers))
      consider(std::move(*asap), "Algorithm 2: items forwarded one by one as soon as possible");
    else
      capped = true;
    if (auto alap = asap_schedule(rev, xr, max_transfers))
      consider(unreversed(std::move(*alap), n), "Algorithm 2 run backwards: items forwarded one by one as late as possible");
    else
      capped = true;
    if (!meets(p.time, p.lower_bound) && capped) p.method += " (item-by-item forwarding needs more than the transfer limit)";
  }
  p.optimal = meets(p.time, p.lower_bound);  // Lemma 5 says it does under the paper's hypothesis
  p.final_loads = final_loads(n, ring.loads, p.transfers);
  return p;
}

}  // namespace hetlb::ring
