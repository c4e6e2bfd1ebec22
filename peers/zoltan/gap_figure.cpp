// hetlb-peers-figure GAP.csv OUT.svg|OUT.png: the gap of every policy's model makespan to hetlb's
// exact plan against the ratio of communication to computation cost, one panel per processor count.
// GAP.csv (written by bench/peers/summarize.py): processors,ratio,policy,mean_gap_pct,max_gap_pct.
// The ratios are drawn as categories (they are not evenly spaced), the gap on a log scale (+1%).
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hetlb/build_info.hpp"
#include "hetlb/plot/gnuplot.hpp"

namespace {

// One style per policy, so that the curves that overlap (the two equal-count splits, Zoltan's two
// methods) stay readable.
std::string style(const std::string& policy) {
  if (policy == "mpi-scatter") return "lc rgb '#888888' lw 2 pt 1";
  if (policy == "divmod") return "lc rgb '#000000' lw 1 dt 2 pt 2";
  if (policy == "zoltan-block") return "lc rgb '#1f5fbf' lw 2 pt 7";
  if (policy == "zoltan-rcb") return "lc rgb '#00a0c0' lw 1 dt 2 pt 6";
  if (policy == "hetlb-lp") return "lc rgb '#d62728' lw 2 pt 5";
  return "lw 1";
}

struct Row {
  std::string ratio;
  double mean = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-peers-figure")) return 0;  // before MPI or any parsing
  if (argc != 3) {
    std::fprintf(stderr, "hetlb-peers-figure: usage: hetlb-peers-figure GAP.csv OUT.svg|OUT.png\n");
    return 2;
  }
  const std::string input = argv[1], output = argv[2];
  try {
    hetlb::plot::check_figure_path("OUT", output);
    std::ifstream in(input);
    if (!in) throw std::runtime_error(input + ": cannot be read");
    std::string line;
    std::getline(in, line);
    if (line.rfind("processors,ratio,policy,mean_gap_pct", 0) != 0)
      throw std::runtime_error(input + ": expected the header processors,ratio,policy,mean_gap_pct,...");
    std::map<int, std::map<std::string, std::vector<Row>>> series;  // processors -> policy -> rows
    std::vector<std::string> policies;
    int number = 1;
    while (std::getline(in, line)) {
      ++number;
      std::stringstream s(line);
      std::string p, ratio, policy, mean;
      if (!std::getline(s, p, ',') || !std::getline(s, ratio, ',') || !std::getline(s, policy, ',') || !std::getline(s, mean, ','))
        throw std::runtime_error(input + ": line " + std::to_string(number) + ": expected 4 fields or more");
      if (policy == "hetlb-exact") continue;
      series[std::stoi(p)][policy].push_back({ratio, std::stod(mean)});
      bool known = false;
      for (const std::string& q : policies) known = known || q == policy;
      if (!known) policies.push_back(policy);
    }
    if (series.empty()) throw std::runtime_error(input + ": no rows");
    std::ostringstream g;
    g << "set terminal " << hetlb::plot::terminal_for(output, 1100, 480 * static_cast<int>(series.size())) << "\n"
      << "set output " << hetlb::plot::kOutputPlaceholder << "\n"
      << "set datafile separator ','\nset multiplot layout " << series.size() << ",1\n"
      << "set logscale y\nset grid ytics\nset key outside right\nset style data linespoints\n"
      << "set xlabel 'ratio of communication to computation cost (categories, not to scale)'\n"
      << "set ylabel 'model makespan over exact, % above (+1, log)'\n";
    for (const auto& [processors, by_policy] : series) {
      g << "set title '" << processors << " processors: gap to hetlb exact (mean of 100 random platforms, RR-4770 eq. 2)'\n";
      std::string plot = "plot ";
      std::string data;
      for (const std::string& policy : policies) {
        const auto found = by_policy.find(policy);
        if (found == by_policy.end()) continue;
        plot += std::string(plot == "plot " ? "" : ", ") + "'-' using 0:($2+1):xtic(1) " + style(policy) + " title " + hetlb::plot::quote(policy);
        for (const Row& r : found->second) data += r.ratio + "," + std::to_string(r.mean) + "\n";
        data += "e\n";
      }
      g << plot << "\n" << data;
    }
    g << "unset multiplot\n";
    hetlb::plot::render(g.str(), output);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetlb-peers-figure: %s\n", e.what());
    return 1;
  }
  return 0;
}
