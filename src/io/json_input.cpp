#include "json_input.hpp"

#include <cmath>
#include <limits>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"

namespace hetlb::io::detail {

std::string read_text_file(const std::string& path, const std::string& what) {
  return read_input_text(path, "the " + what + " file");
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

namespace {
// The checks of every JSON input, as a SAX pass that builds nothing: nesting at most kMaxJsonDepth levels
// and each key once per object. The document is then parsed without a callback: nlohmann-json's callback
// parser rescans the parent array after each object it closes, quadratic in an array of objects (a
// platform of a million processors took minutes).
class InputChecks : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit InputChecks(const std::string& source) : source_(source) {}
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    open();
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!keys_.back().insert(k).second)
      throw Error(fmt::format("{}: duplicate key {}; expected each key once in an object", source_, excerpt(k)));
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    open();
    return true;
  }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    std::string msg = e.what();
    for (char& c : msg)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    if (msg.size() > 200) msg = msg.substr(0, 197) + "...";  // its "last read" token can be a whole string
    throw Error(fmt::format("{}: malformed JSON: {}", source_, msg));
  }

 private:
  void open() {
    if (++depth_ > kMaxJsonDepth)
      throw Error(fmt::format("{}: JSON nested deeper than {} levels; expected at most {} levels of arrays and objects",
                              source_, kMaxJsonDepth, kMaxJsonDepth));
  }
  const std::string& source_;
  int depth_ = 0;
  std::vector<std::unordered_set<std::string>> keys_;  // the keys of each open object, innermost last
};
}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& source) {
  using nlohmann::json;
  InputChecks checks(source);
  json::sax_parse(text, &checks);
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // not expected after the checks' pass: the same grammar
    throw Error(fmt::format("{}: malformed JSON: {}", source, e.what()));
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
