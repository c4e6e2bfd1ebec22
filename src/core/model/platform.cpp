#include "hetlb/model/platform.hpp"

#include <fmt/format.h>

#include "hetlb/error.hpp"

namespace hetlb {

std::size_t Platform::index_of(const std::string& wanted) const {
  for (std::size_t i = 0; i < processors.size(); ++i)
    if (processors[i].name == wanted) return i;
  throw Error(fmt::format("unknown processor {}: expected one of the platform's processor names", printable(wanted)));
}

}  // namespace hetlb
