// A campaign's progress on stderr (progress.hpp).
#include "progress.hpp"

#include <fmt/format.h>

namespace hetlb::campaign {

std::string duration_text(double seconds) {
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

}  // namespace hetlb::campaign
