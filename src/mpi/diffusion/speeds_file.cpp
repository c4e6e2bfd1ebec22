// Relative speeds from a file (hetlb/mpi/diffusion.hpp, read_speeds): hetlb-calibrate's platform JSON
// as it is (speed of processor r = 1 / its compute cost per item, processors in rank order), or numbers
// separated by spaces, commas or newlines ('#' starts a comment).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "hetlb/number_text.hpp"

namespace hetlb::mpi {

std::vector<double> read_speeds(const std::string& path) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw hetlb::Error(fmt::format("{}: {}; expected a file of speeds or hetlb-calibrate's output", path, why));
  std::stringstream text(read_input_text(path, "the speeds file", std::size_t{1} << 26));
  std::vector<double> speeds;
  if (text.str().find('{') != std::string::npos) {
    const Platform p = io::parse_platform_json(text.str(), path);
    for (const Processor& proc : p.processors) {
      const double per_item = proc.compute.asymptotic_slope();
      if (!(per_item > 0) || !std::isfinite(per_item))
        throw hetlb::Error(fmt::format("{}: processor {}: compute cost per item {}; expected > 0 (speed = 1 / cost)",
                                       path, proc.name, per_item));
      speeds.push_back(1 / per_item);
    }
    return speeds;
  }
  return numbers_of(text.str(), path);
}

}  // namespace hetlb::mpi
