// The "params" cells of plug-in settings read without the plug-in, from the results (unloaded_plugins.hpp).
#include "unloaded_plugins.hpp"

#include <algorithm>
#include <vector>

namespace hetlb::campaign {

namespace {

std::vector<std::string> split_params(const std::string& cell) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start < cell.size();) {
    const auto semi = std::min(cell.find(';', start), cell.size());
    out.push_back(cell.substr(start, semi - start));
    start = semi + 1;
  }
  return out;
}

bool not_params(const std::string& column) { return column != "params"; }

}  // namespace

bool has_unloaded_plugins(const Spec& spec) {
  return std::any_of(spec.settings.begin(), spec.settings.end(), [](const Setting& x) { return x.unloaded_plugin; });
}

void resolve_unloaded_plugins(Spec& spec, const std::map<std::string, Row>& rows) {
  // The params cells recorded for each key but params.
  std::map<std::string, std::vector<std::string>> recorded;
  for (const auto& [key, row] : rows) {
    std::string others;
    for (const auto& column : kKeyColumns)
      if (not_params(column)) others += row.at(column) + ",";
    recorded[others].push_back(row.at("params"));
  }
  const auto params_at = static_cast<std::size_t>(std::find(kKeyColumns.begin(), kKeyColumns.end(), "params") -
                                                  kKeyColumns.begin());
  for (Setting& x : spec.settings) {
    if (!x.unloaded_plugin) continue;
    const auto it = recorded.find(x.key_of(not_params));
    if (it == recorded.end()) continue;
    const std::string* best = nullptr;
    std::size_t most = 0;
    for (const std::string& cell : it->second) {
      const auto pairs = split_params(cell);
      const bool given = std::all_of(pairs.begin(), pairs.end(), [&](const std::string& p) {
        return std::find(x.given_params.begin(), x.given_params.end(), p) != x.given_params.end();
      });
      if (given && (!best || pairs.size() > most)) best = &cell, most = pairs.size();
    }
    if (!best) continue;
    x.values.at(params_at) = *best;
    x.key = join_key(x.values);
  }
}

}  // namespace hetlb::campaign
