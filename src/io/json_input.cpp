#include "json_input.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"

namespace hetlb::io::detail {

std::string read_text_file(const std::string& path, const std::string& what) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(fmt::format("{}: cannot open the {} file: {}", path, what, why));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open the {} file", path, what));
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::optional<std::int64_t> whole_number(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (!v.is_number_float()) return std::nullopt;
  const double f = v.get<double>();
  if (!(std::fabs(f) <= 0x1p53) || f != std::floor(f)) return std::nullopt;  // also NaN and inf
  return static_cast<std::int64_t>(f);
}

nlohmann::json parse_json_object(const std::string& text, const std::string& source) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n' || c == '\r') c = ' ';
    throw Error(fmt::format("{}: malformed JSON: {}", source, msg));
  }
  if (!doc.is_object()) throw Error(fmt::format("{}: (top level): expected a JSON object", source));
  return doc;
}

void fail_field(const std::string& source, const std::string& path, const std::string& what) {
  throw Error(fmt::format("{}: {}: {}", source, path, what));
}

}  // namespace hetlb::io::detail
