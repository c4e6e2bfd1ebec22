// Gantt chart of a ring redistribution schedule.
#include "hetlb/plot/ring_gantt.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/plot/gnuplot.hpp"

namespace hetlb::plot {

std::string ring_gantt_script(const ring::Ring& ring, const ring::Plan& plan, const std::string& title,
                              const std::string& path, std::size_t max_boxes) {
  const std::size_t n = ring.size();
  std::vector<const ring::Transfer*> ts;
  for (const auto& t : plan.transfers) ts.push_back(&t);
  std::sort(ts.begin(), ts.end(), [](auto* a, auto* b) { return a->start < b->start; });
  std::string full_title = title;
  if (ts.size() > max_boxes) {
    full_title += fmt::format(" (first {} of {} transfers)", max_boxes, ts.size());
    ts.resize(max_boxes);
  }
  const int height = static_cast<int>(std::clamp<std::size_t>(120 + 22 * n, 300, 2400));
  std::string s = "set terminal " + terminal_for(path, 1100, height) + "\n";
  s += "set output " + std::string(kOutputPlaceholder) + "\n";
  s += "set title " + quote(full_title) + " noenhanced\n";
  s += "set xlabel 'time'\nset ylabel 'sending processor'\nset grid xtics\nset key outside top center horizontal\n";
  s += fmt::format("set yrange [-0.6:{}]\nset xrange [0:{:.9g}]\n", static_cast<double>(n) - 0.4,
                   std::max(plan.time, 1e-9) * 1.02);
  if (n <= 60) {
    s += "set ytics (";
    for (std::size_t i = 0; i < n; ++i) s += fmt::format("{}'P_{}' {}", i ? ", " : "", i, i);
    s += ")\n";
  }
  s += "set style fill solid 0.9 border lc rgb '#333333'\n";
  for (const bool succ : {true, false}) {
    s += succ ? "$succ << EOD\n" : "$pred << EOD\n";
    for (const auto* t : ts)
      if (t->to_succ == succ)
        s += fmt::format("{:.9g} {} {:.9g} {:.9g} {} {}\n", (t->start + t->end) / 2, t->from, t->start, t->end,
                         static_cast<double>(t->from) - 0.35, static_cast<double>(t->from) + 0.35);
    s += "0 -10 0 0 -10 -10\nEOD\n";  // keeps each block non-empty
  }
  s += "plot $succ using 1:2:3:4:5:6 with boxxyerror lc rgb '#2e86c1' title 'to successor', \\\n"
       "     $pred using 1:2:3:4:5:6 with boxxyerror lc rgb '#e67e22' title 'to predecessor'\n";
  return s;
}

void render_ring_gantt(const ring::Ring& ring, const ring::Plan& plan, const std::string& path, const std::string& title) {
  render(ring_gantt_script(ring, plan, title, path), path);
}

}  // namespace hetlb::plot
