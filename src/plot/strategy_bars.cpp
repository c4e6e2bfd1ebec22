#include "hetlb/plot/strategy_bars.hpp"

#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/plot/gnuplot.hpp"

namespace hetlb::plot {

void render_strategy_bars(const std::vector<std::string>& metrics, const std::vector<StrategyBar>& bars,
                          const std::string& title, const std::string& path) {
  if (bars.empty()) throw Error(fmt::format("{}: nothing to plot (no results)", path));
  const std::size_t m = metrics.size();
  std::string s = "set terminal " + terminal_for(path, 1100, 320 * static_cast<int>(m) + 120) + "\n";
  s += "set output " + std::string(kOutputPlaceholder) + "\n";
  s += "$data << EOD\n";
  for (const StrategyBar& b : bars) {
    s += quote_data(b.variant);
    for (double v : b.values) s += std::isnan(v) ? " NaN" : fmt::format(" {:.9g}", v);
    s += "\n";
  }
  s += "EOD\n";
  s += fmt::format("set multiplot layout {},1 title {}\n", m, quote(title));
  s += "set style data histograms\nset style fill solid 0.8 border -1\nset boxwidth 0.8\nset grid ytics\n"
       "set yrange [0:*]\nset key off\nset xtics rotate by -25 noenhanced\n";
  for (std::size_t k = 0; k < m; ++k) {
    s += "set ylabel " + quote(metrics[k]) + "\n";
    if (k + 1 < m) s += "set format x ''\n"; else s += "set format x '%g'\n";
    s += fmt::format("plot $data using {}:xtic(1) lc rgb '#4f81bd'\n", k + 2);
  }
  s += "unset multiplot\n";
  render(s, path);
}

}  // namespace hetlb::plot
