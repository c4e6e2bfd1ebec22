// Numbers read from text the way every hetlb input reads them: a word is a number only when the whole
// word is one (std::stod: "1e3" and "0x10" yes, "3x", "", "1e999" and subnormals no). Header-only, so
// that the command line, the MPI runtime and the example programs share it without a link dependency.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <istream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb {

// The number `text` is, whole; nullopt when it is not one (NaN and infinities are numbers: callers
// check the range they expect).
inline std::optional<double> number_of(const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used == 0 || used != text.size()) return std::nullopt;
  return v;
}

// Whether `text`, whole, is a number a double cannot hold (1e999, or a subnormal such as 1e-308): a
// refusal then says "out of range" rather than "not a number".
inline bool number_out_of_range(const std::string& text) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  (void)std::strtod(text.c_str(), &end);
  return errno == ERANGE && end == text.c_str() + text.size();
}

// What a refusal says of a word number_of refused.
inline std::string not_a_number_reason(const std::string& word) {
  return number_out_of_range(word) ? fmt::format("{} is out of a double's range (magnitudes from 2.2e-308 to 1.8e308, or 0)", word)
                                   : fmt::format("\"{}\" is not a number", word);
}

// Numbers separated by spaces, commas or newlines, '#' starting a comment to the end of its line.
// hetlb::Error "WHAT: "WORD" is not a number" at the first word that is not one.
inline std::vector<double> numbers_of(const std::string& text, const std::string& what) {
  std::vector<double> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line = line.substr(0, line.find('#'));
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      const std::optional<double> v = number_of(word);
      if (!v) throw Error(fmt::format("{}: {}", what, not_a_number_reason(word)));
      out.push_back(*v);
    }
  }
  return out;
}

}  // namespace hetlb
