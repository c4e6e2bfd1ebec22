// Relative speeds and slowdowns as given on the command line (include/hetlb/diffusion/speed_inputs.hpp).
#include "hetlb/diffusion/speed_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"

namespace hetlb::diffusion {

namespace {
std::optional<double> number(const std::string& word) {
  try {
    std::size_t used = 0;
    const double x = std::stod(word, &used);
    if (used == word.size()) return x;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

bool positive_finite(std::optional<double> x) { return x && std::isfinite(*x) && *x > 0; }

constexpr const char* kSpeedExpected = "expected a finite relative speed > 0";

std::vector<double> read_speed_file(const std::string& path) {
  if (const std::string why = unreadable_reason(path); !why.empty())
    throw Error(fmt::format("--speeds \"{}\": {}; expected a file of relative speeds, a list such as 1,1,2,4, or a "
                            "named spread",
                            path, why));
  std::ifstream in(path);
  std::vector<double> speeds;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    for (std::string word; fields >> word;) {
      const auto x = number(word);
      if (!positive_finite(x)) throw Error(fmt::format("{}:{}: speed \"{}\"; {}", path, lineno, word, kSpeedExpected));
      speeds.push_back(*x);
    }
  }
  return speeds;
}

std::vector<double> read_speed_list(const std::string& list) {
  std::vector<double> speeds;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = list.find(',', at);
    const std::string word = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const auto x = number(word);
    if (!positive_finite(x))
      throw Error(fmt::format("--speeds {}: speed \"{}\"; {}", list, word, kSpeedExpected));
    speeds.push_back(*x);
    if (comma == std::string::npos) return speeds;
    at = comma + 1;
  }
}
}  // namespace

std::vector<double> read_speeds(const std::string& spec, int nodes) {
  const bool list = spec.find(',') != std::string::npos || (number(spec) && unreadable_reason(spec) == "no such file");
  const std::vector<double> speeds = list ? read_speed_list(spec) : read_speed_file(spec);
  if (speeds.empty()) throw Error(fmt::format("--speeds {}: no speeds; expected one relative speed per node", spec));
  if (nodes > 0 && static_cast<int>(speeds.size()) != nodes)
    throw Error(fmt::format("--speeds {}: {} speeds for {} nodes; expected one relative speed per node", spec,
                            speeds.size(), nodes));
  return speeds;
}

Slowdown parse_slowdown(const std::string& text) {
  std::vector<std::string> fields;
  std::istringstream in(text);
  for (std::string f; std::getline(in, f, ':');) fields.push_back(f);
  if (fields.size() != 4 || text.back() == ':')
    throw Error(fmt::format("--slowdown {}: expected NODE:FACTOR:START:END (node index, factor > 0, dates in s)", text));
  Slowdown s;
  s.text = text;
  const auto node = number(fields[0]);
  if (!node || *node < 0 || *node != std::floor(*node) || *node > 1e9)
    throw Error(fmt::format("--slowdown {}: node \"{}\"; expected a node index (0, 1, ...)", text, fields[0]));
  s.node = static_cast<int>(*node);
  const auto factor = number(fields[1]);
  if (!positive_finite(factor))
    throw Error(fmt::format("--slowdown {}: factor \"{}\"; expected a finite factor > 0 (the node's speed is divided "
                            "by it)",
                            text, fields[1]));
  s.factor = *factor;
  const auto start = number(fields[2]), end = number(fields[3]);
  if (!start || !std::isfinite(*start) || *start < 0)
    throw Error(fmt::format("--slowdown {}: start \"{}\"; expected a finite date >= 0 (s)", text, fields[2]));
  if (!end || !std::isfinite(*end))
    throw Error(fmt::format("--slowdown {}: end \"{}\"; expected a finite date (s)", text, fields[3]));
  if (!(*end > *start))
    throw Error(fmt::format("--slowdown {}: ends at {} s, not after its start at {} s; expected START < END", text,
                            fields[3], fields[2]));
  s.start = *start;
  s.end = *end;
  return s;
}

void check_slowdowns(const std::vector<Slowdown>& slowdowns, int nodes) {
  for (const Slowdown& s : slowdowns)
    if (s.node < 0 || s.node >= nodes)
      throw Error(fmt::format("--slowdown {}: node {}; expected a node from 0 to {}", s.text, s.node, nodes - 1));
  std::vector<const Slowdown*> order;
  for (const Slowdown& s : slowdowns) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](const Slowdown* a, const Slowdown* b) {
    return a->node != b->node ? a->node < b->node : a->start < b->start;
  });
  for (std::size_t i = 1; i < order.size(); ++i)
    if (order[i]->node == order[i - 1]->node && order[i]->start < order[i - 1]->end)
      throw Error(fmt::format("--slowdown {} and --slowdown {}: overlap on node {}; expected disjoint intervals on one "
                              "node",
                              order[i - 1]->text, order[i]->text, order[i]->node));
}

}  // namespace hetlb::diffusion
