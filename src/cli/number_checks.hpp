// CLI11 checks of numeric options whose refusals read like the rest of hetlb's: the option, the
// value, what was expected (CLI11's own range checks print the largest double).
#pragma once
#include <cmath>
#include <string>

#include <CLI/CLI.hpp>

namespace hetlb::cli {

inline CLI::Validator number_check(bool (*ok)(double), const std::string& expected) {
  return CLI::Validator(
      [ok, expected](std::string& text) -> std::string {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != text.size() || used == 0 || !ok(v)) return "value " + text + ": expected " + expected;
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

}  // namespace hetlb::cli
