#include "json_input.hpp"

#include <fstream>
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
