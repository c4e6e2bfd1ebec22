// Printing of weighted scatter plans (hetlb scatter --weights): the count plan's table plus each
// share's work and range; JSON adds the same fields (io::weighted_scatter_json); CSV two columns.
#include <fmt/format.h>

#include "hetlb/csv.hpp"
#include "hetlb/io/build_json.hpp"
#include "scatter_output.hpp"

namespace hetlb::cli {

void print_weighted_scatter(std::ostream& out, const Platform& platform, const scatter::WeightedResult& wr,
                            const std::string& format) {
  const scatter::Result& r = wr.result;
  const scatter::WeightedPlan& w = wr.weighted;
  const bool contiguous = w.layout == scatter::Layout::Contiguous;
  if (format == "json") {
    nlohmann::json j = io::weighted_scatter_json(wr);
    j["build"] = io::build_json();
    out << j.dump(2) << "\n";
    return;
  }
  if (format == "csv") {
    out << "name,items,work,first,comm_start,comm_end,finish,idle\n";
    for (std::size_t i = 0; i < r.problem.size(); ++i) {
      const auto& t = r.schedule.shares[i];
      out << fmt::format("{},{},{:.9g},{},{:.9g},{:.9g},{:.9g},{:.9g}\n", csv_cell(r.problem.names[i]), w.items[i],
                         w.work[i], contiguous ? fmt::format("{}", w.first[i]) : std::string(), t.comm_start, t.comm_end,
                         t.finish, t.idle);
    }
    return;
  }
  print_scatter(out, platform, r, format);
  double total = 0;
  for (double x : w.work) total += x;
  out << fmt::format("\nlayout {}: {}\n", scatter::to_string(w.layout),
                     contiguous ? "items keep their order, each processor one range"
                                : "items in any order (the assignment is in --format json)");
  out << fmt::format("{:>3}  {:<16} {:>12} {:>14} {:>8}\n", "#", "processor", "items", contiguous ? "range" : "", "work %");
  for (std::size_t i = 0; i < w.items.size(); ++i) {
    const std::string range =
        !contiguous || w.items[i] == 0 ? std::string() : fmt::format("{}..{}", w.first[i], w.first[i] + w.items[i] - 1);
    out << fmt::format("{:>3}  {:<16} {:>12} {:>14} {:>8.2f}\n", i + 1, r.problem.names[i], w.items[i], range,
                       total > 0 ? 100.0 * w.work[i] / total : 0.0);
  }
  if (!contiguous) out << fmt::format("contiguous optimum {:.6g} s\n", w.contiguous_makespan);
  if (w.guarantee) out << fmt::format("guarantee    makespan <= {:.6g} s (Theorem W2)\n", w.lower_bound + *w.guarantee);
}

}  // namespace hetlb::cli
