#include "json_input.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <vector>

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

namespace {
constexpr std::size_t kExcerptChars = 40;

std::string cut(std::string text) {
  if (text.size() <= kExcerptChars) return text;
  std::size_t at = kExcerptChars - 3;
  while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;  // not inside a UTF-8 character
  return text.substr(0, at) + "...";
}
}  // namespace

std::string excerpt(const nlohmann::json& v) {
  return cut(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string excerpt(const std::string& s) { return excerpt(nlohmann::json(s)); }

nlohmann::json parse_json(const std::string& text, const std::string& source) {
  using nlohmann::json;
  // The keys of each object open at this point of the reading, innermost last.
  std::vector<std::unordered_set<std::string>> keys;
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= kMaxJsonDepth)
          throw Error(fmt::format("{}: JSON nested deeper than {} levels; expected at most {} levels of arrays and "
                                  "objects",
                                  source, kMaxJsonDepth, kMaxJsonDepth));
        if (event == json::parse_event_t::object_start) keys.emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!keys.empty()) keys.pop_back();
        break;
      case json::parse_event_t::key:
        if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
          throw Error(fmt::format("{}: duplicate key {}; expected each key once in an object", source,
                                  excerpt(parsed)));
        break;
      default:
        break;
    }
    return true;
  };
  try {
    return json::parse(text, check);
  } catch (const json::exception& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    if (msg.size() > 200) msg = msg.substr(0, 197) + "...";  // its "last read" token can be a whole string
    throw Error(fmt::format("{}: malformed JSON: {}", source, msg));
  }
}

nlohmann::json parse_json_object(const std::string& text, const std::string& source) {
  nlohmann::json doc = parse_json(text, source);
  if (!doc.is_object()) throw Error(fmt::format("{}: (top level): expected a JSON object", source));
  return doc;
}

void fail_field(const std::string& source, const std::string& path, const std::string& what) {
  throw Error(fmt::format("{}: {}: {}", source, path, what));
}

}  // namespace hetlb::io::detail
