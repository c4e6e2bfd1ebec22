// hetlb-peers-imbalance-figure OUT.svg|OUT.png TRACE.csv...: the iteration-time imbalance over time
// (max over ranks of an iteration's computing time / the mean) of hetlb-peers-diffuse runs, one curve
// per trace (--trace: date,imbalance), labelled by the file name after its "RANKS-SCENARIO-" prefix (_ read as :).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "hetlb/build_info.hpp"
#include "hetlb/plot/gnuplot.hpp"

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-peers-imbalance-figure")) return 0;  // before MPI or any parsing
  if (argc < 3) {
    std::fprintf(stderr, "hetlb-peers-imbalance-figure: usage: hetlb-peers-imbalance-figure OUT.svg|OUT.png TRACE.csv...\n");
    return 2;
  }
  const std::string output = argv[1];
  try {
    hetlb::plot::check_figure_path("OUT", output);
    std::string data, plot = "plot ";
    for (int a = 2; a < argc; ++a) {
      const std::string path = argv[a];
      std::ifstream in(path);
      std::string line;
      if (!in || !std::getline(in, line) || line != "date,imbalance")
        throw std::runtime_error(path + ": expected a trace of hetlb-peers-diffuse (header date,imbalance)");
      std::string label = path.substr(path.find_last_of('/') + 1);
      label = label.substr(0, label.size() - 4);                 // .csv
      for (int dash = 0; dash < 2 && label.find('-') != std::string::npos; ++dash) label = label.substr(label.find('-') + 1);
      std::replace(label.begin(), label.end(), '_', ':');  // zoltan_10: the policy zoltan:10
      const std::string block = "$t" + std::to_string(a);
      data += block + " << EOD\n";
      while (std::getline(in, line)) data += line + "\n";
      data += "EOD\n";
      plot += std::string(a == 2 ? "" : ", ") + block + " using 1:2 with steps lw " + (label.rfind("zoltan", 0) == 0 ? "2" : "1") +
              " title " + hetlb::plot::quote(label);
    }
    std::string g = "set terminal " + hetlb::plot::terminal_for(output, 1100, 600) + "\n";
    g += "set output " + std::string(hetlb::plot::kOutputPlaceholder) + "\n";
    g += "set datafile separator ','\nset xlabel 'time (s)'\nset ylabel 'iteration time, max / mean over ranks'\n";
    g += "set logscale y\nset grid\nset key outside right\n" + data + plot + "\n";
    hetlb::plot::render(g, output);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetlb-peers-imbalance-figure: %s\n", e.what());
    return 2;
  }
  return 0;
}
