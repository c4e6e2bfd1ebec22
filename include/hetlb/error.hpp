// hetlb::Error: every refusal of the library is one line naming what was wrong and what was expected.
#pragma once
#include <stdexcept>
#include <string>

namespace hetlb {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// A value from the input, quoted for a one-line message: 'text', control characters escaped, a long
// one cut to its first 57 characters and '...'.
inline std::string printable(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  // A long string is cut (not inside a UTF-8 character): a message stays one short line.
  constexpr std::size_t kShown = 60;
  std::size_t shown = s.size();
  if (shown > kShown) {
    shown = kShown - 3;
    while (shown > 0 && (static_cast<unsigned char>(s[shown]) & 0xC0) == 0x80) --shown;
  }
  std::string out = "'";
  for (unsigned char c : s.substr(0, shown)) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += std::string("\\x") + hex[c >> 4] + hex[c & 15];
    else out += static_cast<char>(c);
  }
  return out + (shown < s.size() ? "...'" : "'");
}

}  // namespace hetlb
