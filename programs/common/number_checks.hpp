// CLI11 checks of numeric options whose refusals read like the rest of hetlb's: the option, the
// value, what was expected (CLI11's own range checks print the largest double). Shared by every
// program of the project (target hetlb_cli_checks).
#pragma once
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <system_error>

#include <CLI/CLI.hpp>

#include "hetlb/number_text.hpp"

namespace hetlb::cli {

inline CLI::Validator number_check(bool (*ok)(double), const std::string& expected) {
  return CLI::Validator(
      [ok, expected](std::string& text) -> std::string {
        const std::optional<double> v = number_of(text);
        if (!v && number_out_of_range(text)) return "value " + text + ": out of a double's range; expected " + expected;
        if (!v || !ok(*v)) return "value " + text + ": expected " + expected;
        return "";
      },
      expected);
}

inline CLI::Validator positive() {
  return number_check([](double v) { return std::isfinite(v) && v > 0; }, "a positive number");
}
inline CLI::Validator non_negative() {
  return number_check([](double v) { return std::isfinite(v) && v >= 0; }, "a non-negative number");
}

// A number from lo to hi (both included): where a larger or smaller value would only overflow the
// results (a ratio of 1e308 gave infinite totals).
inline CLI::Validator number_from_to(double lo, double hi) {
  const std::string expected = fmt::format("a number from {:g} to {:g}", lo, hi);
  return CLI::Validator(
      [lo, hi, expected](std::string& text) -> std::string {
        const std::optional<double> v = number_of(text);
        if (!v && number_out_of_range(text)) return "value " + text + ": out of a double's range; expected " + expected;
        if (!v || !(*v >= lo && *v <= hi)) return "value " + text + ": expected " + expected;
        return "";
      },
      expected);
}

// A whole number from lo to hi, read exactly: CLI11 itself saturates out-of-range integers (a seed of
// 1e23 digits became 2^64 - 1, an iteration count INT64_MAX) and wraps negative ones into unsigned
// options (-5 became 2^64 - 5), silently.
template <class T>
CLI::Validator whole_number(T lo, T hi) {
  const std::string expected = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, expected](std::string& text) -> std::string {
        T v{};
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, v);
        if (text.empty() || ec != std::errc() || stop != end || v < lo || v > hi)
          return "value " + text + ": expected " + expected;
        return "";
      },
      expected);
}

// A name that must be given when the option is: `--root ""` is not the default root, it is refused.
inline CLI::Validator non_empty(const std::string& expected) {
  return CLI::Validator(
      [expected](std::string& text) -> std::string { return text.empty() ? "value \"\": expected " + expected : ""; },
      "");
}

}  // namespace hetlb::cli
