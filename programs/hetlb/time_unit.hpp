// Times in the command line's tables: one unit per table (s, ms, us or ns), chosen from its largest
// time, so that a plan of microseconds does not print as 0.000 s and a cost of 1e300 s does not print
// as 300 digits. JSON and CSV keep seconds at full precision.
#pragma once
#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace hetlb::cli {

struct TimeUnit {
  const char* name = "s";
  int exponent = 0;  // units per second: 10^exponent
  double per_second() const { return std::pow(10.0, exponent); }  // table value = seconds x per_second()
};

// The unit in which `largest` seconds (a table's reference time, e.g. the makespan) reads from 1 to
// 1000; seconds from 1 s up, and for 0 or a value that is not finite.
inline TimeUnit time_unit_for(double largest) {
  const double a = std::fabs(largest);
  if (!std::isfinite(a) || a == 0 || a >= 1) return {"s", 0};
  if (a >= 1e-3) return {"ms", 3};
  if (a >= 1e-6) return {"us", 6};
  return {"ns", 9};
}

// The line a table starts with when its unit is not seconds ("times in us"); empty in seconds.
inline std::string unit_line(TimeUnit unit) {
  return unit.exponent == 0 ? std::string() : fmt::format("times in {}\n", unit.name);
}

// `seconds` in `unit` with `decimals` decimals; in scientific notation from 1e9 units up (a table cell
// stays a table cell), exponent shifted by the unit's so that 1e303 s reads 1.000e+309 us, not inf.
inline std::string time_text(double seconds, TimeUnit unit, int decimals = 3) {
  if (!std::isfinite(seconds)) return fmt::format("{}", seconds);
  if (const double v = seconds * unit.per_second(); std::fabs(v) < 1e9) {
    // C's printf: the same correctly rounded digits as fmt's "{:.{}f}", faster (a
    // 100,000-processor table prints 300,000 of them).
    char text[64];
    const int n = std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return std::string(text, static_cast<std::size_t>(n));
  }
  const std::string text = fmt::format("{:.{}e}", seconds, decimals);  // "1.000e+303"
  const std::size_t e = text.find('e');
  return fmt::format("{}e{:+03d}", text.substr(0, e), std::stoi(text.substr(e + 1)) + unit.exponent);
}

}  // namespace hetlb::cli
