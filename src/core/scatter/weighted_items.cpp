// The weighted-item model (weighted.hpp): validation, layouts, and equation (1) of RR-4770 with
// W(S) and B(S) in place of the item count.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace hetlb::scatter {

bool WeightedItems::unit() const {
  return std::all_of(work.begin(), work.end(), [](double w) { return w == 1.0; }) &&
         std::all_of(size.begin(), size.end(), [](double b) { return b == 1.0; });
}

void WeightedItems::check() const {
  if (work.empty()) throw Error("weights: expected at least one item");
  if (!size.empty() && size.size() != work.size())
    throw Error(fmt::format("sizes: {} values for {} items; expected one per item", size.size(), work.size()));
  const auto check_values = [](const std::vector<double>& v, const char* what) {
    double total = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (!std::isfinite(v[k]) || v[k] < 0)
        throw Error(fmt::format("{}: item {}: {} is not a finite number >= 0", what, k, v[k]));
      total += v[k];
    }
    if (!std::isfinite(total) || total > 1e300) throw Error(fmt::format("{}: the total overflows", what));
  };
  check_values(work, "weights");
  check_values(size, "sizes");
}

Layout parse_layout(const std::string& name) {
  if (name == "contiguous") return Layout::Contiguous;
  if (name == "any") return Layout::Any;
  throw Error(fmt::format("layout '{}': expected contiguous or any", name));
}

std::string to_string(Layout layout) { return layout == Layout::Contiguous ? "contiguous" : "any"; }

std::vector<std::size_t> contiguous_owner(const std::vector<Count>& counts) {
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < counts.size(); ++i) owner.insert(owner.end(), static_cast<std::size_t>(counts[i]), i);
  return owner;
}

Schedule evaluate_weighted(const Problem& problem, const WeightedItems& items, const std::vector<std::size_t>& owner) {
  const std::size_t p = problem.size();
  if (owner.size() != items.work.size()) throw Error("weighted assignment: one owner per item expected");
  std::vector<double> work(p, 0.0), size(p, 0.0);
  std::vector<Count> count(p, 0);
  for (std::size_t k = 0; k < owner.size(); ++k) {
    if (owner[k] >= p) throw Error(fmt::format("weighted assignment: item {} given to processor {} of {}", k, owner[k], p));
    work[owner[k]] += items.work[k];
    size[owner[k]] += items.size.empty() ? 1.0 : items.size[k];
    ++count[owner[k]];
  }
  Schedule s;
  s.shares.resize(p);
  double sent = 0, first = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < p; ++i) {  // the same association as evaluate(): (sent + comm) + comp
    ShareTiming& t = s.shares[i];
    t.comm_start = sent;
    if (count[i] > 0) sent += problem.comm[i].eval(size[i]);
    t.comm_end = sent;
    t.finish = sent + (count[i] > 0 ? problem.compute[i].eval(work[i]) : 0.0);
    s.makespan = std::max(s.makespan, t.finish);
    if (count[i] > 0) first = std::min(first, t.finish);
  }
  s.first_finish = std::isinf(first) ? 0.0 : first;
  s.last_finish = s.makespan;
  for (std::size_t i = 0; i < p; ++i) {
    ShareTiming& t = s.shares[i];
    t.idle = (i + 1 == p ? 0.0 : t.comm_start) + (s.makespan - t.finish);
  }
  return s;
}

}  // namespace hetlb::scatter
