// Load curves of a diffusion simulation: each node's load against simulated time.
#include "hetlb/plot/load_curves.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/plot/gnuplot.hpp"

namespace hetlb::plot {

std::string load_curves_script(const std::vector<double>& dates, const std::vector<std::vector<double>>& loads,
                               double average, const std::string& title, const std::vector<double>& time_imbalance) {
  if (dates.empty() || loads.size() != dates.size()) throw Error("load curves: no samples; expected a trace");
  const bool panel = !time_imbalance.empty();
  if (panel && time_imbalance.size() != dates.size())
    throw Error("load curves: time imbalance samples differ from the trace's; expected one per date");
  const std::size_t nodes = loads.front().size();
  const bool each = nodes <= 32;
  std::string s = "set output " + std::string(kOutputPlaceholder) + "\n";
  if (panel) s += "set multiplot layout 2,1\n";
  s += "set title " + quote(title) + "\n";
  s += "set xlabel 'simulated time (s)'\nset ylabel 'load (units)'\nset grid\nset key outside right top\n";
  s += "$loads << EOD\n";
  for (std::size_t k = 0; k < dates.size(); ++k) {
    s += fmt::format("{:.9g}", dates[k]);
    if (each) {
      for (double x : loads[k]) s += fmt::format(" {:.9g}", x);
    } else {
      double lo = loads[k].front(), hi = lo, sum = 0;
      for (double x : loads[k]) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        sum += x;
      }
      s += fmt::format(" {:.9g} {:.9g} {:.9g}", lo, sum / static_cast<double>(nodes), hi);
    }
    s += "\n";
  }
  s += "EOD\n";
  const std::string ref = fmt::format("{:.9g} with lines dt 2 lw 2 lc rgb '#000000' title 'average'", average);
  if (each)
    s += fmt::format("plot for [i=2:{}] $loads using 1:i with steps title sprintf('node %d', i-2), {}\n", nodes + 1,
                     ref);
  else
    s += "plot $loads using 1:2 with steps lc rgb '#2e86c1' title 'min', "
         "$loads using 1:3 with steps lc rgb '#27ae60' title 'mean of held load', "
         "$loads using 1:4 with steps lc rgb '#c0392b' title 'max', " +
         ref + "\n";
  if (!panel) return s;
  s += "set title 'time imbalance: max over nodes of load/speed, over total load/total speed'\n";
  s += "set ylabel 'time imbalance'\nset key off\n$imbalance << EOD\n";
  for (std::size_t k = 0; k < dates.size(); ++k) s += fmt::format("{:.9g} {:.9g}\n", dates[k], time_imbalance[k]);
  s += "EOD\nplot $imbalance using 1:2 with steps lw 2 lc rgb '#8e44ad', 1 with lines dt 2 lc rgb '#000000'\n";
  return s + "unset multiplot\n";
}

void render_load_curves(const std::vector<double>& dates, const std::vector<std::vector<double>>& loads,
                        double average, const std::string& title, const std::string& path,
                        const std::vector<double>& time_imbalance) {
  const bool panel = !time_imbalance.empty();
  render("set terminal " + terminal_for(path, 1100, panel ? 1000 : 650) + "\n" +
             load_curves_script(dates, loads, average, title, time_imbalance),
         path);
}

}  // namespace hetlb::plot
