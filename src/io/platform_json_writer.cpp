// Writer of the platform file (the format of platform_json.hpp), e.g. for calibration results.
#include <nlohmann/json.hpp>

#include "hetlb/io/platform_json.hpp"

namespace hetlb::io {

namespace {
nlohmann::ordered_json cost_json(const CostFunction& f) {
  switch (f.kind()) {
    case CostFunction::Kind::Linear:
      return {{"per_item", f.per_item()}};
    case CostFunction::Kind::Affine:
      return {{"latency", f.latency()}, {"per_item", f.per_item()}};
    case CostFunction::Kind::Table: {
      nlohmann::ordered_json t = nlohmann::ordered_json::array();
      for (const auto& [x, y] : f.points()) t.push_back({x, y});
      return {{"table", t}};
    }
  }
  return {};
}
}  // namespace

std::string cost_to_json(const CostFunction& cost) { return cost_json(cost).dump(); }

std::string platform_to_json(const Platform& pf) {
  nlohmann::ordered_json procs = nlohmann::ordered_json::array();
  for (const Processor& p : pf.processors) {
    nlohmann::ordered_json j = {{"name", p.name}, {"compute", cost_json(p.compute)}, {"comm", cost_json(p.comm)}};
    if (p.transfer) j["transfer"] = cost_json(*p.transfer);
    procs.push_back(j);
  }
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  if (!pf.name.empty()) doc["name"] = pf.name;
  if (pf.items > 0) doc["items"] = pf.items;
  if (!pf.processors.empty()) doc["root"] = pf.processors[pf.root].name;
  doc["processors"] = procs;
  return doc.dump(2) + "\n";
}

}  // namespace hetlb::io
