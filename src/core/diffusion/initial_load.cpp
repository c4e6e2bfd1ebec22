// Initial distributions of the paper (Section "Configurations"): all the load on one node (an end
// of the line), or spread at random; plus any distribution read from a file.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "hetlb/diffusion/initial_load.hpp"
#include "hetlb/diffusion/metrics.hpp"
#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"

namespace hetlb::diffusion {

namespace {
// Uniform in [0, 1) from the top 53 bits: identical on every standard library.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

std::vector<double> random_load(int nodes, double total, bool integer, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> w(nodes);
  for (double& x : w) x = unit(rng);
  const double sum = std::accumulate(w.begin(), w.end(), 0.0);
  std::vector<double> load(nodes);
  for (int i = 0; i < nodes; ++i) load[i] = sum > 0 ? total * w[i] / sum : total / nodes;
  if (!integer) return load;
  // Largest remainders: floor everything, then one more unit to the largest fractional parts.
  std::vector<int> order(nodes);
  std::iota(order.begin(), order.end(), 0);
  double assigned = 0;
  std::vector<double> frac(nodes);
  for (int i = 0; i < nodes; ++i) {
    const double f = std::floor(load[i]);
    frac[i] = load[i] - f;
    load[i] = f;
    assigned += f;
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return frac[a] > frac[b]; });
  for (long long left = std::llround(total - assigned), p = 0; left > 0; --left, ++p) load[order[p % nodes]] += 1;
  return load;
}
}  // namespace

std::vector<double> read_initial_load(const std::string& path, int nodes, bool integer) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(fmt::format("initial load \"{}\": {}; expected single, random or a file", path, why));
  std::ifstream in(path);
  std::vector<double> load;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string word;
    while (fields >> word) {
      // strtod, not stod: a tiny positive load (1e-320, below the smallest normal double) is a load;
      // one past the largest double is named as such.
      char* end = nullptr;
      errno = 0;
      const double x = std::strtod(word.c_str(), &end);
      if (end != word.c_str() + word.size() || std::isnan(x) || x < 0)
        throw Error(fmt::format("{}:{}: load \"{}\"; expected a non-negative number", path, lineno, word));
      if (!std::isfinite(x))
        throw Error(fmt::format("{}:{}: load \"{}\"{}; expected a finite non-negative number", path, lineno, word,
                                errno == ERANGE ? " is beyond the largest double" : ""));
      if (integer && x != std::floor(x))
        throw Error(fmt::format("{}:{}: load {}: expected a whole number (the load counts whole units: integer load, "
                                "or an MPI program's items)",
                                path, lineno, word));
      load.push_back(x);
    }
  }
  if (nodes > 0 && static_cast<int>(load.size()) != nodes)
    throw Error(fmt::format("{}: {} loads for {} nodes; expected one load per node", path, load.size(), nodes));
  if (load.empty()) throw Error(fmt::format("{}: no loads; expected one load per node", path));
  const double total = total_load(load);
  if (!std::isfinite(total))
    throw Error(fmt::format("{}: the loads add up past the largest double ({:g}); expected a finite total load", path,
                            std::numeric_limits<double>::max()));
  if (total <= 0) throw Error(fmt::format("{}: total load is 0; expected some load", path));
  return load;
}

std::vector<double> make_initial_load(const std::string& spec, int nodes, double per_node, bool integer,
                                      std::uint64_t seed) {
  if (spec != "single" && spec != "random") return read_initial_load(spec, nodes, integer);
  if (nodes < 1) throw Error(fmt::format("initial load: {} nodes; expected at least 1", nodes));
  if (!(per_node > 0) || !std::isfinite(per_node))
    throw Error(fmt::format("load per node {}; expected a positive number", per_node));
  if (integer && per_node != std::floor(per_node))
    throw Error(fmt::format("load per node {}: expected a whole number (the load counts whole units: integer load, or "
                            "an MPI program's items)",
                            per_node));
  const double total = per_node * nodes;
  if (!std::isfinite(total))
    throw Error(fmt::format("load per node {} x {} nodes: the total load is past the largest double ({:g}); expected a "
                            "smaller load per node",
                            per_node, nodes, std::numeric_limits<double>::max()));
  if (spec == "single") {
    std::vector<double> load(nodes, 0.0);
    load[0] = total;
    return load;
  }
  return random_load(nodes, total, integer, seed);
}

}  // namespace hetlb::diffusion
