// --trace: every node's load and the time imbalance over time as CSV, written whole or not at all (hetlb/output_path.hpp).
#include <ostream>

#include <fmt/format.h>

#include "hetlb/output_path.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"

namespace hetlb::sim {

void write_trace_csv(const DiffusionResult& result, const std::string& path) {
  write_file("--trace", path, [&](std::ostream& out) {
    out << "date";
    for (std::size_t i = 0; i < result.final_loads.size(); ++i) out << ",node" << i;
    out << ",time_imbalance\n";
    for (const LoadSample& s : result.trace) {
      out << fmt::format("{:.9g}", s.date);
      for (double x : s.loads) out << fmt::format(",{:.12g}", x);
      out << fmt::format(",{:.12g}\n", s.time_imbalance);
    }
  });
}

}  // namespace hetlb::sim
