// The words of a list as a sentence names them: "a", "a or b", "a, b or c". Every registry's help text
// and every "expected ..." message says its choices this way.
#pragma once
#include <string>
#include <vector>

namespace hetlb {

inline std::string choices_text(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace hetlb
