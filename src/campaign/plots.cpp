// Figures of a campaign's comparison (gnuplot): wins per variant and ratio; paired runs without and
// with virtual load; best effort's smallest k against larger ones; best effort's best against the best
// of Makhoul and simple (one point per configuration).
#include "plots.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "hetlb/plot/gnuplot.hpp"

namespace hetlb::campaign {

namespace {
using plot::quote;

void wins_chart(const Comparison& c, const std::string& path) {
  std::string s = "set terminal " + plot::terminal_for(path, 1100, 600) + "\n";
  s += "set output " + std::string(plot::kOutputPlaceholder) + "\n$data << EOD\nvariant";
  for (const auto& r : c.ratios) s += " " + plot::quote_data("ratio " + r);
  s += "\n";
  for (const auto& v : c.variants) {
    s += plot::quote_data(v);
    for (const auto& r : c.ratios) {
      int wins = 0;
      for (const auto& conf : c.configurations)
        if (conf.complete && conf.ratio == r)
          for (const auto& e : conf.entries) wins += e.variant == v && e.valid && e.rank == 1;
      s += fmt::format(" {}", wins);
    }
    s += "\n";
  }
  s += "EOD\n";
  s += "set title " + quote(fmt::format("Configurations won ({} {}), per ratio", c.metric,
                                        c.lower_is_better ? "lowest" : "highest")) + " noenhanced\n";
  s += "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
       "set grid ytics\nset yrange [0:*]\nset key top right noenhanced\nset xtics rotate by -25 noenhanced\n"
       "set ylabel 'configurations won'\n";
  s += "plot";
  for (std::size_t i = 0; i < c.ratios.size(); ++i)
    s += fmt::format("{} $data using {}:xtic(1) title columnheader({})", i ? "," : "", i + 2, i + 2);
  s += "\n";
  plot::render(s, path);
}

// x: a's value, y: b's value, one point per pair where both are valid; the diagonal for reference.
void paired_chart(const std::vector<Pair>& pairs, const std::string& x_label,
                  const std::string& y_label, const std::string& title, const std::string& path) {
  std::string s = "set terminal " + plot::terminal_for(path, 900, 750) + "\n";
  s += "set output " + std::string(plot::kOutputPlaceholder) + "\n";
  std::vector<std::string> groups;
  for (const auto& p : pairs)
    if (std::find(groups.begin(), groups.end(), p.group + " ratio " + p.ratio) == groups.end())
      groups.push_back(p.group + " ratio " + p.ratio);
  double lo = INFINITY, hi = 0;
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    s += fmt::format("$g{} << EOD\n", gi);
    for (const auto& p : pairs)
      if (p.group + " ratio " + p.ratio == groups[gi] && p.a_ok && p.b_ok && p.a > 0 && p.b > 0) {
        s += fmt::format("{:.9g} {:.9g}\n", p.a, p.b);
        lo = std::min({lo, p.a, p.b});
        hi = std::max({hi, p.a, p.b});
      }
    s += "EOD\n";
  }
  if (!(hi > 0)) lo = 1, hi = 10;
  s += "set title " + quote(title) + " noenhanced\nset xlabel " + quote(x_label) + " noenhanced\nset ylabel " +
       quote(y_label) + " noenhanced\n";
  s += fmt::format("set logscale xy\nset grid\nset key outside right noenhanced\nset xrange [{0:.9g}:{1:.9g}]\n"
                   "set yrange [{0:.9g}:{1:.9g}]\n",
                   lo / 1.5, hi * 1.5);
  s += "plot x title 'equal' lc rgb '#999999'";
  for (std::size_t gi = 0; gi < groups.size(); ++gi)
    s += fmt::format(", $g{} using 1:2 with points pt {} title {}", gi, 4 + 2 * (gi % 5), quote(groups[gi]));
  s += "\n";
  plot::render(s, path);
}

// The compared metric per variant: per group of configurations that differ only by their seed, the
// mean of the valid runs with bars from the smallest to the largest (the seeds' spread); one series per
// group, offset along x so that the groups of one variant stand side by side.
void values_chart(const Comparison& c, const std::string& path) {
  std::vector<std::string> groups;
  std::map<std::pair<std::string, std::string>, std::vector<double>> values;  // (group, variant) -> values
  for (const auto& conf : c.configurations) {
    std::string group;  // the label without its seed
    for (std::size_t start = 0; start < conf.label.size();) {
      const auto end = std::min(conf.label.find(' ', start), conf.label.size());
      const std::string word = conf.label.substr(start, end - start);
      if (!word.starts_with("seed=")) group += (group.empty() ? "" : " ") + word;
      start = end + 1;
    }
    if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
    for (const auto& e : conf.entries)
      if (e.valid) values[{group, e.variant}].push_back(e.value);
  }
  std::string s = "set terminal " + plot::terminal_for(path, 1100, 650) + "\n";
  s += "set output " + std::string(plot::kOutputPlaceholder) + "\n";
  const double width = 0.8 / static_cast<double>(groups.size());
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    s += fmt::format("$g{} << EOD\n", gi);
    for (std::size_t vi = 0; vi < c.variants.size(); ++vi) {
      const auto it = values.find({groups[gi], c.variants[vi]});
      if (it == values.end()) continue;
      const auto& v = it->second;
      double sum = 0;
      for (double x : v) sum += x;
      s += fmt::format("{:.9g} {:.9g} {:.9g} {:.9g}\n", static_cast<double>(vi) - 0.4 + width * (gi + 0.5),
                       sum / static_cast<double>(v.size()), *std::min_element(v.begin(), v.end()),
                       *std::max_element(v.begin(), v.end()));
    }
    s += "EOD\n";
  }
  s += "set title " + quote(fmt::format("{} per variant ({} is better): mean over seeds, bars from the smallest to the "
                                        "largest",
                                        c.metric, c.lower_is_better ? "lower" : "higher")) +
       " noenhanced\n";
  s += "set ylabel " + quote(c.metric) + " noenhanced\nset grid ytics\nset key outside right noenhanced\n";
  s += fmt::format("set xrange [-0.6:{}]\nset xtics rotate by -25 noenhanced (", static_cast<double>(c.variants.size()) - 0.4);
  for (std::size_t vi = 0; vi < c.variants.size(); ++vi)
    s += fmt::format("{}{} {}", vi ? ", " : "", quote(c.variants[vi]), vi);
  s += ")\nplot";
  for (std::size_t gi = 0; gi < groups.size(); ++gi)
    s += fmt::format("{} $g{} using 1:2:3:4 with yerrorbars pt {} title {}", gi ? "," : "", gi, 5 + 2 * (gi % 5),
                     quote(groups[gi].empty() ? "all runs" : groups[gi]));
  s += "\n";
  plot::render(s, path);
}

std::string sibling(const std::string& path, const std::string& suffix) {
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + suffix + p.extension().string())).string();
}
}  // namespace

std::vector<std::string> plot_paths(const std::string& path) {
  return {path, sibling(path, "-virtual"), sibling(path, "-k"), sibling(path, "-lead"), sibling(path, "-values")};
}

void plot_comparison(const Comparison& c, const std::string& path) {
  const auto paths = plot_paths(path);
  // Nothing to compare yet (no configuration has all its variants): no figure rather than an empty one.
  if (std::none_of(c.configurations.begin(), c.configurations.end(), [](const Configuration& x) { return x.complete; })) {
    fmt::print(stderr, "hetlb campaign: no configuration has all its results yet: no figure written to {}\n", path);
    return;
  }
  wins_chart(c, paths[0]);
  values_chart(c, paths[4]);
  const std::string what = is_imbalance_metric(c.metric) ? c.metric
                           : c.lower_is_better          ? "convergence date (s)"
                                                        : "load computed";
  const auto vp = virtual_pairs(c);
  if (!vp.empty())
    paired_chart(vp, what + " without virtual load", what + " with virtual load",
                 "Virtual load, paired runs (below the diagonal: " +
                     std::string(c.lower_is_better ? "faster" : "less computed") + " with)",
                 paths[1]);
  const auto kp = k_pairs(c);
  if (!kp.empty())
    paired_chart(kp, what + ", smallest k", what + ", larger k", "Best effort's k, paired runs", paths[2]);
  const auto dp = duel_pairs(c);
  if (!dp.empty())
    paired_chart(dp, what + ", " + c.groups.subject_label + "'s best", what + ", best of " + c.groups.against_label,
                 (c.groups.subject_label == "best effort" ? std::string("Best effort") : c.groups.subject_label) +
                     " against " + c.groups.against_label + ", per configuration (above the diagonal: " +
                     c.groups.subject_label + " " +
                     std::string(c.lower_is_better ? "faster" : "computes less") + ")",
                 paths[3]);
}

}  // namespace hetlb::campaign
