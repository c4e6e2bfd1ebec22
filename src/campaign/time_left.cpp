// The time a campaign has left (time_left.hpp).
#include "time_left.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "progress.hpp"

namespace hetlb::campaign {

namespace {
// The key columns that set a run's cost, from the closest likeness to the loosest.
bool at_level(int level, const std::string& column) {
  if (level == 0) return column != "seed";
  const bool loosest = column == "nodes" || column == "topology" || column == "time_limit";
  if (level == 1) return loosest || column == "platform" || column == "ratio";
  return loosest;
}
}  // namespace

TimeLeft::TimeLeft(const Spec& spec, const std::vector<std::size_t>& todo, const std::map<std::string, Row>& rows,
                   int jobs)
    : spec_(spec), left_(todo.begin(), todo.end()), jobs_(std::max(jobs, 1)) {
  for (int level = 0; level < kLevels; ++level) {
    keys_[level].reserve(spec.settings.size());
    for (const Setting& s : spec.settings)
      keys_[level].push_back(s.key_of([level](const std::string& column) { return at_level(level, column); }));
  }
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    if (left_.count(i)) continue;  // a row to be replaced (--retry) is not a time to go by
    const auto it = rows.find(spec.settings[i].key);
    if (it == rows.end()) continue;
    const double w = it->second.number("wall_seconds");  // NaN when the row has none
    if (std::isfinite(w) && w >= 0) add(i, w);
  }
}

void TimeLeft::add(std::size_t i, double wall_seconds) {
  for (int level = 0; level < kLevels; ++level) {
    Mean& m = means_[level][keys_[level][i]];
    m.sum += wall_seconds;
    ++m.count;
  }
}

void TimeLeft::finished(std::size_t id, double wall_seconds) {
  if (id >= spec_.settings.size()) return;
  left_.erase(id);
  if (std::isfinite(wall_seconds) && wall_seconds >= 0) add(id, wall_seconds);
}

std::string TimeLeft::text(double elapsed) const {
  if (left_.empty()) return duration_text(elapsed) + " in all";
  const std::string e = estimate();
  return duration_text(elapsed) + " so far" + (e.empty() ? "" : ", " + e);
}

std::string TimeLeft::estimate() const {
  double seconds = 0;
  std::size_t unlike = 0;
  for (const std::size_t i : left_) {
    bool timed = false;
    for (int level = 0; level < kLevels && !timed; ++level) {
      const auto it = means_[level].find(keys_[level][i]);
      if (it == means_[level].end()) continue;
      seconds += it->second.sum / static_cast<double>(it->second.count);
      timed = true;
    }
    unlike += !timed;
  }
  if (unlike == left_.size()) return "";
  const std::string left = fmt::format("about {} left", duration_text(seconds / static_cast<double>(jobs_)));
  if (unlike == 0) return left;
  return fmt::format("{} and {} run{} unlike any timed yet", left, unlike, unlike == 1 ? "" : "s");
}

}  // namespace hetlb::campaign
