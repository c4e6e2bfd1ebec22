// hetlb::Error: every refusal of the library is one line naming what was wrong and what was expected.
#pragma once
#include <stdexcept>
#include <string>

namespace hetlb {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace hetlb
