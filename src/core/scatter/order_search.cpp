// The best send order: branch and bound on small platforms, local search beyond (see
// order_search.hpp for the bound and why it holds).
#include "hetlb/scatter/order_search.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/progress.hpp"
#include "hetlb/scatter/rational.hpp"
#include "hetlb/scatter/send_order.hpp"

namespace hetlb::scatter {

namespace {

bool same_cost(const CostFunction& a, const CostFunction& b) {
  return a.kind() == b.kind() && a.latency() == b.latency() && a.per_item() == b.per_item() && a.points() == b.points();
}

struct Searcher {
  const Platform& pf;
  std::size_t root;
  Count items;
  const OrderSearchOptions& opt;
  std::vector<double> c, w;        // linear minorants per platform index
  std::vector<std::size_t> kind;   // processors with identical costs share a kind
  OrderSearch best;
  bool out_of_budget = false;
  bool all_exact = true;           // every evaluation was a proven optimum

  Searcher(const Platform& platform, std::size_t r, Count n, const OrderSearchOptions& o)
      : pf(platform), root(r), items(n), opt(o) {
    const std::size_t p = pf.processors.size();
    for (std::size_t i = 0; i < p; ++i) {
      c.push_back(i == root ? 0.0 : pf.processors[i].comm.lower_slope());
      w.push_back(pf.processors[i].compute.lower_slope());
      std::size_t k = i;
      for (std::size_t j = 0; j < i; ++j)
        if (same_cost(pf.processors[i].comm, pf.processors[j].comm) &&
            same_cost(pf.processors[i].compute, pf.processors[j].compute)) {
          k = kind[j];
          break;
        }
      kind.push_back(k);
    }
    best.makespan = std::numeric_limits<double>::infinity();
  }

  // Exact makespan of `order` (non-root processors); the incumbent is updated.
  double evaluate(std::vector<std::size_t> order) {
    order.push_back(root);
    ++best.evaluations;
    const Plan plan = solve_exact(make_problem(pf, order, items), opt.exact);
    all_exact = all_exact && plan.optimal;
    if (plan.makespan < best.makespan) {
      best.makespan = plan.makespan;
      best.order = order;
    }
    return plan.makespan;
  }

  // Rational optimum on the minorants: `prefix`, then `rest` (sorted by minorant slope), the root.
  double bound(const std::vector<std::size_t>& prefix, const std::vector<std::size_t>& rest) const {
    std::vector<double> cc, ww;
    for (std::size_t i : prefix) cc.push_back(c[i]), ww.push_back(w[i]);
    for (std::size_t i : rest) cc.push_back(c[i]), ww.push_back(w[i]);
    cc.push_back(0.0);
    ww.push_back(w[root]);
    return static_cast<double>(items) * suffix_durations(cc, ww).front();
  }

  void branch(std::vector<std::size_t>& prefix, std::vector<std::size_t>& rest) {
    if (best.evaluations >= opt.max_evaluations) {
      out_of_budget = true;
      return;
    }
    if (rest.empty()) {
      evaluate(prefix);
      return;
    }
    if (bound(prefix, rest) >= best.makespan) return;
    std::vector<std::size_t> tried;
    for (std::size_t k = 0; k < rest.size() && !out_of_budget; ++k) {
      const std::size_t next = rest[k];
      if (std::find(tried.begin(), tried.end(), kind[next]) != tried.end()) continue;
      tried.push_back(kind[next]);
      prefix.push_back(next);
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
      branch(prefix, rest);
      rest.insert(rest.begin() + static_cast<std::ptrdiff_t>(k), next);
      prefix.pop_back();
    }
  }

  // An order scored cheaply: `score` is the makespan of its best rounded relaxation, a feasible plan
  // in that order (so an upper bound of its exact optimum), `lower_bound` a proven bound, in O(p).
  struct Candidate {
    double score, lower_bound;
    std::vector<std::size_t> order;
  };
  Candidate estimate(const std::vector<std::size_t>& order) {
    std::vector<std::size_t> with_root = order;
    with_root.push_back(root);
    ++best.estimates;
    report_progress([&] {
      return fmt::format("order best: {} of at most {} orders of {} processors scored", best.estimates,
                         opt.max_estimates, order.size() + 1);
    });
    const Plan plan = heuristic_plan(make_problem(pf, with_root, items));
    return {plan.makespan, plan.lower_bound, order};
  }

  // The distinct orders with the lowest scores seen by the local search, best first.
  std::vector<Candidate> shortlist;
  void remember(const Candidate& candidate) {
    for (const auto& c : shortlist)
      if (c.order == candidate.order) return;
    shortlist.push_back(candidate);
    std::stable_sort(shortlist.begin(), shortlist.end(), [](const auto& x, const auto& y) { return x.score < y.score; });
    if (shortlist.size() > opt.shortlist) shortlist.pop_back();
  }

  // First-improvement moves of one processor (to the next position, the front, the back), scored by
  // estimate(); every order that improves is remembered for the exact evaluation.
  void local_search(std::vector<std::size_t> cur) {
    Candidate here = estimate(cur);
    remember(here);
    const std::size_t k = cur.size();
    bool improved = true;
    while (improved) {
      improved = false;
      for (std::size_t a = 0; a < k && !improved; ++a) {
        for (std::size_t b : {a + 1, std::size_t{0}, k - 1}) {
          if (b >= k || b == a) continue;
          if (best.estimates >= opt.max_estimates) return;
          std::vector<std::size_t> cand = cur;
          const std::size_t moved = cand[a];
          cand.erase(cand.begin() + static_cast<std::ptrdiff_t>(a));
          cand.insert(cand.begin() + static_cast<std::ptrdiff_t>(b), moved);
          if (kind[moved] == kind[cur[b]] && (b == a + 1 || b + 1 == a)) continue;  // same costs swapped
          Candidate next = estimate(cand);
          if (next.score < here.score) {
            cur = cand;
            here = std::move(next);
            remember(here);
            improved = true;
            break;
          }
        }
      }
    }
  }
};

}  // namespace

OrderSearch search_order(const Platform& platform, std::size_t root, Count items, const OrderSearchOptions& options) {
  if (platform.processors.size() > kOrderSearchMaxProcessors)
    throw Error(fmt::format("order best: {} processors: expected at most {} (the local search scores up to {} orders "
                            "in O(p) each, about a minute at 10,000 processors); the bandwidth order is the best "
                            "for linear costs (Theorem 3)",
                            platform.processors.size(), kOrderSearchMaxProcessors, options.max_estimates));
  Searcher s(platform, root, items, options);
  std::vector<std::size_t> bandwidth = send_order(platform, root, OrderPolicy::Bandwidth);
  bandwidth.pop_back();
  std::vector<std::size_t> by_minorant = bandwidth;  // the bound's order of the remaining processors
  std::stable_sort(by_minorant.begin(), by_minorant.end(), [&](std::size_t a, std::size_t b) { return s.c[a] < s.c[b]; });
  const double all_orders_bound = s.bound({}, by_minorant);
  s.best.bandwidth_makespan = s.evaluate(bandwidth);
  const std::size_t p = platform.processors.size();
  const bool exhaustive = p <= options.branch_and_bound_max;
  if (exhaustive) {
    std::vector<std::size_t> prefix;
    s.branch(prefix, by_minorant);
  }
  if (!exhaustive || s.out_of_budget) {
    // Local search on the cheap score from the bandwidth order and two latency-aware orders (per-item
    // link cost at the average share, and at one item); then the shortlist is evaluated exactly.
    const Count share = std::max<Count>(1, items / static_cast<Count>(p));
    s.local_search(bandwidth);
    for (Count x : {share, Count{1}}) {
      std::vector<std::size_t> start = bandwidth;
      std::stable_sort(start.begin(), start.end(), [&](std::size_t a, std::size_t b) {
        return platform.processors[a].comm(x) < platform.processors[b].comm(x);
      });
      if (start != bandwidth) s.local_search(start);
    }
    if (exhaustive) {  // branch and bound's best order is a candidate too
      std::vector<std::size_t> cur = s.best.order;
      cur.pop_back();
      s.local_search(cur);
    }
    for (const auto& c : s.shortlist) {  // an order whose own bound reaches the incumbent cannot beat it
      if (s.best.evaluations >= options.max_evaluations) break;
      if (c.order != bandwidth && c.lower_bound < s.best.makespan) s.evaluate(c.order);
    }
  }
  OrderSearch r = s.best;
  r.proven = exhaustive && !s.out_of_budget && s.all_exact;
  r.lower_bound = r.proven ? r.makespan : std::min(r.makespan, all_orders_bound);
  const std::size_t others = p - 1;
  if (r.proven)
    r.method = fmt::format("branch and bound over the orders of {} processors ({} exact evaluations): best of every "
                           "order",
                           others, r.evaluations);
  else
    r.method = fmt::format("{}local search on rounded relaxations ({} orders scored), the {} best evaluated exactly "
                           "(unless their bound reaches the best; {} exact evaluations in all): best order found; lower bound over every order from the "
                           "rational relaxation in bandwidth order (Theorem 3)",
                           exhaustive ? "branch and bound stopped by its budget, then " : "", r.estimates,
                           s.shortlist.size(), r.evaluations);
  return r;
}

}  // namespace hetlb::scatter
