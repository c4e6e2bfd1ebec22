// Equations (1) and (2) of RR-4770, Section 3.1.
#include "hetlb/scatter/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hetlb/error.hpp"

namespace hetlb::scatter {

namespace {
void check_sizes(const Problem& problem, const std::vector<Count>& items) {
  if (items.size() != problem.size()) throw Error("distribution: one count per processor expected");
}
}  // namespace

double makespan(const Problem& problem, const std::vector<Count>& items) {
  check_sizes(problem, items);
  double sent = 0, worst = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    sent += problem.comm[i](items[i]);
    worst = std::max(worst, sent + problem.compute[i](items[i]));
  }
  return worst;
}

Schedule evaluate(const Problem& problem, const std::vector<Count>& items) {
  check_sizes(problem, items);
  Schedule s;
  s.shares.resize(items.size());
  double sent = 0;
  double first = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < items.size(); ++i) {
    ShareTiming& t = s.shares[i];
    t.comm_start = sent;
    sent += problem.comm[i](items[i]);
    t.comm_end = sent;
    t.finish = sent + problem.compute[i](items[i]);
    s.makespan = std::max(s.makespan, t.finish);
    if (items[i] > 0) first = std::min(first, t.finish);
  }
  s.first_finish = std::isinf(first) ? 0.0 : first;
  s.last_finish = s.makespan;
  // The root is busy sending from time 0; the others wait until their reception starts.
  for (std::size_t i = 0; i < items.size(); ++i) {
    ShareTiming& t = s.shares[i];
    const double waiting = (i + 1 == items.size()) ? 0.0 : t.comm_start;
    t.idle = waiting + (s.makespan - t.finish);
  }
  return s;
}

}  // namespace hetlb::scatter
