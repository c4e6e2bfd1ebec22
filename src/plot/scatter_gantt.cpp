// Gantt chart of a scatter (RR-4770, Figures 2-4).
#include "hetlb/plot/scatter_gantt.hpp"

#include <fmt/format.h>

#include "hetlb/plot/gnuplot.hpp"

namespace hetlb::plot {

std::string scatter_gantt_script(const scatter::Result& r, const std::string& title, double per_second,
                                 const std::string& unit) {
  const auto& pb = r.problem;
  const auto& sh = r.schedule.shares;
  const std::size_t p = pb.size();
  std::string s;
  s += "set output " + std::string(kOutputPlaceholder) + "\n";
  s += "set title " + quote(title) + "\n";
  s += "set ylabel " + quote("time (" + unit + ")") + "\nset y2label 'data (items)'\nset ytics nomirror\nset y2tics\n";
  s += "set yrange [0:*]\nset y2range [0:*]\nset grid ytics\nset key outside top center horizontal\n";
  s += fmt::format("set xrange [0.4:{}]\n", p + 0.6);
  s += "set xtics rotate by -60 scale 0 (";
  for (std::size_t i = 0; i < p; ++i) s += fmt::format("{}{} {}", i ? ", " : "", quote(pb.names[i]), i + 1);
  s += ")\nset style fill solid 1.0 border lc rgb '#444444'\n";
  // Blocks: 0 idle before reception, 1 receiving (root: sending), 2 computing, 3 items.
  auto block = [&](const char* name, auto lo, auto hi) {
    s += fmt::format("${} << EOD\n", name);
    for (std::size_t i = 0; i < p; ++i)
      s += fmt::format("{} {:.9g} {:.9g}\n", i + 1, lo(i) * per_second, hi(i) * per_second);
    s += "EOD\n";
  };
  const bool root_last = true;
  block("idle", [&](std::size_t) { return 0.0; },
        [&](std::size_t i) { return (root_last && i + 1 == p) ? 0.0 : sh[i].comm_start; });
  block("comm", [&](std::size_t i) { return (i + 1 == p) ? 0.0 : sh[i].comm_start; },
        [&](std::size_t i) { return sh[i].comm_end; });
  block("comp", [&](std::size_t i) { return sh[i].comm_end; }, [&](std::size_t i) { return sh[i].finish; });
  s += "$items << EOD\n";
  for (std::size_t i = 0; i < p; ++i) s += fmt::format("{} {}\n", i + 1, r.plan.items[i]);
  s += "EOD\n";
  s += "plot $idle using 1:(($2+$3)/2):($1-0.38):($1+0.38):2:3 with boxxyerror lc rgb '#f4f4f4' title 'idle', \\\n"
       "     $comm using 1:(($2+$3)/2):($1-0.38):($1+0.38):2:3 with boxxyerror lc rgb '#202020' "
       "title 'receiving (root: sending)', \\\n"
       "     $comp using 1:(($2+$3)/2):($1-0.38):($1+0.38):2:3 with boxxyerror lc rgb '#7fa7d9' title 'computing', \\\n"
       "     $items using 1:2 axes x1y2 with linespoints lw 2 pt 7 lc rgb '#c0392b' title 'amount of data'\n";
  return "set terminal " + terminal_for("x.png") + "\n" + s;
}

void render_scatter_gantt(const scatter::Result& r, const std::string& path, const std::string& title,
                          double per_second, const std::string& unit) {
  std::string script = scatter_gantt_script(r, title, per_second, unit);
  // Replace the terminal with the one matching `path`.
  const std::size_t eol = script.find('\n');
  script = "set terminal " + terminal_for(path) + script.substr(eol);
  render(script, path);
}

}  // namespace hetlb::plot
