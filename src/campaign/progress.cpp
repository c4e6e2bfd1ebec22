// A campaign's progress on stderr (progress.hpp).
#include "progress.hpp"

#include <fmt/format.h>

namespace hetlb::campaign {

std::string duration_text(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

std::string time_left_text(double elapsed, std::size_t done, std::size_t total) {
  if (done >= total) return duration_text(elapsed) + " in all";
  if (done == 0) return duration_text(elapsed) + " so far";
  const double left = elapsed / static_cast<double>(done) * static_cast<double>(total - done);
  return fmt::format("{} so far, about {} left", duration_text(elapsed), duration_text(left));
}

}  // namespace hetlb::campaign
