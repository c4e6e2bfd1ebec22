// --trace: every node's load over time as CSV, written to a temporary file renamed into place.
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {

void write_trace_csv(const DiffusionResult& result, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(fmt::format("--trace \"{}\": cannot write; expected a writable path", path));
    out << "date";
    for (std::size_t i = 0; i < result.final_loads.size(); ++i) out << ",node" << i;
    out << '\n';
    for (const LoadSample& s : result.trace) {
      out << fmt::format("{:.9g}", s.date);
      for (double x : s.loads) out << fmt::format(",{:.12g}", x);
      out << '\n';
    }
    if (!out.flush()) {
      std::remove(tmp.c_str());
      throw Error(fmt::format("--trace \"{}\": write failed", path));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(fmt::format("--trace \"{}\": cannot rename the temporary file into place", path));
  }
}

}  // namespace hetlb::sim
