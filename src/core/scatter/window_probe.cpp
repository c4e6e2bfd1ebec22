// Feasibility "is there a distribution finishing by T?" in any send order, for non-decreasing costs
// of every kind (see WindowProbe in feasibility_probes.hpp). After processor i the states are the
// Pareto frontier of (m items placed on P_1..P_i, sending date s), min s for each m (RR-4770's
// Algorithm 1 keeps the same information for every m; here only the m that can still finish are
// kept). From a state (m, s), P_i takes x items with s + Tcomm(i, x) + Tcomp(i, x) <= T, i.e.
// x <= cap(s); on each linear piece of Tcomm(i, .) the new sending date s + a + b x is linear in
// m' = m + x, so the next frontier is a lower envelope of spans, swept with a heap. A state is
// dropped when the rational relaxation of the processors after it (Theorems 1-2 on the linear
// minorants of the costs) cannot take the n - m items left by T, or when another state has placed
// at least as many items by an earlier or equal date (removing items never delays anybody).
#include <algorithm>
#include <cmath>
#include <limits>

#include "feasibility_probes.hpp"
#include "hetlb/scatter/rational.hpp"

namespace hetlb::scatter::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Integer x in [1, inf) split into ranges where Tcomm(x) = a + b x exactly (up to rounding).
std::vector<std::pair<std::pair<Count, Count>, std::pair<double, double>>> linear_pieces(const CostFunction& f) {
  std::vector<std::pair<std::pair<Count, Count>, std::pair<double, double>>> out;
  if (f.kind() != CostFunction::Kind::Table) {
    out.push_back({{1, kMaxCount}, {f.kind() == CostFunction::Kind::Affine ? f.latency() : 0.0, f.per_item()}});
    return out;
  }
  const auto& pts = f.points();
  auto to_count = [](double x) { return x >= static_cast<double>(kMaxCount) ? kMaxCount : static_cast<Count>(std::floor(x)); };
  double x0 = 0, t0 = 0;
  for (const auto& [x1, t1] : pts) {
    const double b = (t1 - t0) / (x1 - x0);
    const Count lo = to_count(x0) + 1, hi = to_count(x1);
    if (lo <= hi) out.push_back({{lo, hi}, {t0 - b * x0, b}});
    x0 = x1;
    t0 = t1;
  }
  const double b = f.asymptotic_slope();
  const Count lo = to_count(x0) + 1;
  if (lo < kMaxCount) out.push_back({{lo, kMaxCount}, {t0 - b * x0, b}});
  return out;
}

Count clamp_count(double v) {
  if (!(v > -static_cast<double>(kMaxCount))) return -kMaxCount;
  if (!(v < static_cast<double>(kMaxCount))) return kMaxCount;
  return static_cast<Count>(v);
}

}  // namespace

WindowProbe::WindowProbe(const Problem& pb, std::size_t max_layer_states, std::size_t max_total_states)
    : pb_(pb), max_layer_(max_layer_states), max_total_(max_total_states) {
  const std::size_t p = pb.size();
  std::vector<double> c(p), w(p);
  for (std::size_t i = 0; i < p; ++i) {
    c[i] = i + 1 == p ? 0.0 : pb.comm[i].lower_slope();
    w[i] = pb.compute[i].lower_slope();
  }
  const std::vector<double> d = suffix_durations(c, w);
  rate_.resize(p + 1, 0.0);
  for (std::size_t i = 0; i < p; ++i) rate_[i] = d[i] > 0 ? 1.0 / d[i] : kInf;
  pieces_.resize(p);
  for (std::size_t i = 0; i + 1 < p; ++i)
    for (const auto& [range, line] : linear_pieces(pb.comm[i]))
      pieces_[i].push_back(Piece{range.first, range.second, line.first, line.second});
}

bool WindowProbe::expand(std::size_t i, double T, const Layer& prev, Layer& next) {
  const Count n = pb_.items;
  const CostFunction &comm = pb_.comm[i], &comp = pb_.compute[i];
  const double rate_here = rate_[i], rate = rate_[i + 1];
  const double tm = T + 1e-12 * std::abs(T);  // tolerance of the rational bounds, never of feasibility
  // The n - m items left cannot all be processed from date s by processors >= k: drop the state.
  auto hopeless = [&](Count m, double s, double r) {
    return r != kInf && static_cast<double>(n - m) > (tm - s) * r * (1 + 1e-12) + 1e-9;
  };
  const std::size_t pieces = pieces_[i].size();
  spans_.clear();
  Count lo = kMaxCount, hi = -1;
  next.s.clear();
  next.from.clear();
  for (std::size_t k = 0; k < prev.s.size(); ++k) {
    const double s = prev.s[k];
    if (s == kInf) continue;
    const Count m = prev.lo + static_cast<Count>(k);
    if (hopeless(m, s, rate_here)) continue;
    if (!hopeless(m, s, rate)) {  // P_i takes nothing
      lo = std::min(lo, m);
      hi = std::max(hi, m);
    }
    const Count cap = capacity(comm, comp, s, T, n - m);
    for (std::size_t g = 0; g < pieces; ++g) {
      const Piece& pc = pieces_[i][g];
      if (pc.lo > cap) break;
      Count xlo = pc.lo, xhi = std::min(pc.hi, cap);
      if (rate != kInf) {  // x (1 - b rate) >= (n - m) - (T - s - a) rate, with one item of margin
        const double r = 1.0 - pc.b * rate;
        const double need = static_cast<double>(n - m) - (tm - s - pc.a) * rate * (1 + 1e-12);
        if (r > 1e-12) xlo = std::max(xlo, clamp_count(std::floor(need / r)) - 1);
        else if (r < -1e-12) xhi = std::min(xhi, clamp_count(std::ceil(need / r)) + 1);
        else if (need > 1e-9) continue;
      }
      if (xlo > xhi) continue;
      spans_.push_back(Span{m + xlo, m + xhi, s + pc.a - pc.b * static_cast<double>(m), m, g});
      lo = std::min(lo, m + xlo);
      hi = std::max(hi, m + xhi);
    }
  }
  if (hi < lo) {
    next.lo = 0;
    return true;  // empty: infeasible
  }
  if (static_cast<double>(hi - lo) + 1 > static_cast<double>(max_layer_)) return false;
  next.lo = lo;
  next.s.assign(static_cast<std::size_t>(hi - lo + 1), kInf);
  next.from.assign(next.s.size(), -1);
  std::vector<double> value(next.s.size(), kInf);  // approximate dates used to pick the best source
  for (std::size_t k = 0; k < prev.s.size(); ++k) {  // x = 0
    const double s = prev.s[k];
    const Count m = prev.lo + static_cast<Count>(k);
    if (s == kInf || m < lo || m > hi || hopeless(m, s, rate)) continue;
    const std::size_t idx = static_cast<std::size_t>(m - lo);
    value[idx] = s;
    next.from[idx] = m;
  }
  // Group the spans by piece (stable), then sweep each piece's spans in increasing m'.
  std::sort(spans_.begin(), spans_.end(), [](const Span& a, const Span& b) {
    return a.piece != b.piece ? a.piece < b.piece : a.start != b.start ? a.start < b.start : a.from < b.from;
  });
  for (std::size_t first = 0; first < spans_.size();) {
    std::size_t last = first;
    while (last < spans_.size() && spans_[last].piece == spans_[first].piece) ++last;
    const double b = pieces_[i][spans_[first].piece].b;
    heap_.clear();
    auto cmp = [&](const std::pair<double, std::size_t>& x, const std::pair<double, std::size_t>& y) { return x > y; };
    std::size_t j = first;
    Count m = spans_[first].start;
    while (true) {
      while (j < last && spans_[j].start <= m) {
        heap_.push_back({spans_[j].key, j});
        std::push_heap(heap_.begin(), heap_.end(), cmp);
        ++j;
      }
      while (!heap_.empty() && spans_[heap_.front().second].end < m) {
        std::pop_heap(heap_.begin(), heap_.end(), cmp);
        heap_.pop_back();
      }
      if (heap_.empty()) {
        if (j == last) break;
        m = spans_[j].start;
        continue;
      }
      const Span& sp = spans_[heap_.front().second];
      const double v = sp.key + b * static_cast<double>(m);
      const std::size_t idx = static_cast<std::size_t>(m - lo);
      if (v < value[idx]) {
        value[idx] = v;
        next.from[idx] = sp.from;
      }
      ++m;
    }
    first = last;
  }
  // Exact dates (evaluated as equation (1) does), bound and dominance, from the largest m' down.
  double earliest = kInf;
  for (std::size_t idx = next.s.size(); idx-- > 0;) {
    const Count from = next.from[idx];
    if (from < 0) continue;
    const Count m = lo + static_cast<Count>(idx), x = m - from;
    const double s0 = prev.s[static_cast<std::size_t>(from - prev.lo)];
    const double s = x == 0 ? s0 : s0 + comm(x);
    if (s + comp(x) > T || s >= earliest || hopeless(m, s, rate)) {
      next.from[idx] = -1;
      continue;
    }
    next.s[idx] = s;
    earliest = s;
  }
  // Trim the ends.
  std::size_t a = 0, e = next.s.size();
  while (a < e && next.s[a] == kInf) ++a;
  while (e > a && next.s[e - 1] == kInf) --e;
  next.s.erase(next.s.begin() + static_cast<std::ptrdiff_t>(e), next.s.end());
  next.s.erase(next.s.begin(), next.s.begin() + static_cast<std::ptrdiff_t>(a));
  next.from.erase(next.from.begin() + static_cast<std::ptrdiff_t>(e), next.from.end());
  next.from.erase(next.from.begin(), next.from.begin() + static_cast<std::ptrdiff_t>(a));
  next.lo = lo + static_cast<Count>(a);
  return true;
}

Probe WindowProbe::operator()(double T, std::vector<Count>* items) {
  const std::size_t p = pb_.size();
  const Count n = pb_.items;
  layers_.resize(p);
  layers_[0].lo = 0;
  layers_[0].s.assign(1, 0.0);
  layers_[0].from.assign(1, -1);
  last_states_ = 1;
  for (std::size_t i = 0; i + 1 < p; ++i) {
    if (!expand(i, T, layers_[i], layers_[i + 1])) return Probe::TooLarge;
    last_states_ += layers_[i + 1].s.size();
    if (last_states_ > max_total_) return Probe::TooLarge;
    if (layers_[i + 1].s.empty()) return Probe::Infeasible;
  }
  // The root takes the rest after the last send.
  const Layer& last = layers_[p - 1];
  const CostFunction& root = pb_.compute.back();
  double best = kInf;
  Count best_m = -1;
  for (std::size_t k = 0; k < last.s.size(); ++k) {
    if (last.s[k] == kInf) continue;
    const Count m = last.lo + static_cast<Count>(k);
    const double f = last.s[k] + root(n - m);
    if (f < best) {
      best = f;
      best_m = m;
    }
  }
  if (!(best <= T)) return Probe::Infeasible;
  if (items) {
    items->assign(p, 0);
    Count m = best_m;
    for (std::size_t i = p - 1; i-- > 0;) {
      const Layer& l = layers_[i + 1];
      const Count from = l.from[static_cast<std::size_t>(m - l.lo)];
      (*items)[i] = m - from;
      m = from;
    }
    items->back() = n - best_m;
  }
  return Probe::Feasible;
}

}  // namespace hetlb::scatter::detail
