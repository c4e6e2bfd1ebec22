// Times in the command line's tables: one unit per table (s, ms, us or ns), chosen from its largest
// time, so that a plan of microseconds does not print as 0.000 s and a cost of 1e300 s does not print
// as 300 digits. JSON and CSV keep seconds at full precision.
#pragma once
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace hetlb::cli {

struct TimeUnit {
  double per_second = 1.0;  // table value = seconds x per_second
  const char* name = "s";
};

// The unit in which `largest` seconds (a table's reference time, e.g. the makespan) reads from 1 to
// 1000; seconds from 1 s up, and for 0 or a value that is not finite.
inline TimeUnit time_unit_for(double largest) {
  const double a = std::fabs(largest);
  if (!std::isfinite(a) || a == 0 || a >= 1) return {1.0, "s"};
  if (a >= 1e-3) return {1e3, "ms"};
  if (a >= 1e-6) return {1e6, "us"};
  return {1e9, "ns"};
}

// `seconds` in `unit` with `decimals` decimals; in scientific notation from 1e9 units up (a table cell
// stays a table cell), exponent shifted by the unit's so that 1e303 s reads 1.000e+309 us, not inf.
inline std::string time_text(double seconds, TimeUnit unit, int decimals = 3) {
  if (!std::isfinite(seconds)) return fmt::format("{}", seconds);
  if (const double v = seconds * unit.per_second; std::fabs(v) < 1e9) return fmt::format("{:.{}f}", v, decimals);
  int exponent = static_cast<int>(std::floor(std::log10(std::fabs(seconds))));
  std::string mantissa = fmt::format("{:.{}f}", seconds / std::pow(10.0, exponent), decimals);
  if (mantissa.starts_with("10.") || mantissa.starts_with("-10.")) {  // 9.9996 rounded up
    ++exponent;
    mantissa = fmt::format("{:.{}f}", seconds / std::pow(10.0, exponent), decimals);
  }
  return fmt::format("{}e{:+03d}", mantissa, exponent + static_cast<int>(std::lround(std::log10(unit.per_second))));
}

}  // namespace hetlb::cli
