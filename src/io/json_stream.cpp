#include "json_stream.hpp"

namespace hetlb::io::detail {

std::string dump_at(const nlohmann::json& value, int indent, int level) {
  std::string text = value.dump(indent);
  if (level == 0 || text.find('\n') == std::string::npos) return text;
  const std::string pad = "\n" + std::string(static_cast<std::size_t>(indent * level), ' ');
  std::string shifted;
  shifted.reserve(text.size());
  for (char c : text) {
    if (c == '\n') shifted += pad;
    else shifted += c;
  }
  return shifted;
}

void write_json_streamed(std::ostream& out, const nlohmann::json& doc, int indent,
                         const std::map<std::string, StreamedMember>& streamed) {
  const StreamedMember::Pad pad = [indent](int level) { return "\n" + std::string(static_cast<std::size_t>(indent * level), ' '); };
  out << '{';
  bool first = true;
  for (const auto& [key, value] : doc.items()) {
    out << (first ? "" : ",") << pad(1) << nlohmann::json(key).dump() << ": ";
    first = false;
    if (const auto s = streamed.find(key); s != streamed.end()) s->second.write(out, pad);
    else out << dump_at(value, indent, 1);
  }
  out << (first ? "" : pad(0)) << '}';
}

}  // namespace hetlb::io::detail
