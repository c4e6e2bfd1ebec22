#include "hetlb/io/build_json.hpp"
#include "report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace seismic {

std::string to_json(const RunReport& r) {
  nlohmann::json j;
  j["mode"] = r.mode;
  j["rays"] = r.rays;
  j["root"] = r.root;
  j["makespan"] = r.makespan;
  j["ranks"] = nlohmann::json::array();
  for (const RankTimes& t : r.ranks)
    j["ranks"].push_back({{"rank", t.rank}, {"items", t.items}, {"receive", t.receive}, {"compute", t.compute},
                          {"finish", t.finish}});
  if (!r.order.empty()) j["order"] = r.order;
  if (!r.send_order.empty()) j["send_order"] = r.send_order;
  if (r.predicted_makespan >= 0) j["predicted_makespan"] = r.predicted_makespan;
  if (r.calibration_seconds >= 0) j["calibration_seconds"] = r.calibration_seconds;
  if (!r.gather.empty()) j["gather"] = r.gather;
  if (!r.slowdown.empty()) j["slowdown"] = r.slowdown;
  j["checksum"] = r.checksum;
  j["sequential_checksum"] = r.sequential_checksum;
  j["integrity"] = r.integrity;
  j["build"] = hetlb::io::build_json();
  return j.dump();
}

std::string to_table(const RunReport& r) {
  std::string out = fmt::format("mode {}: {} rays from root {} on {} ranks\n", r.mode, r.rays, r.root, r.ranks.size());
  out += fmt::format("{:>5} {:>9} {:>11} {:>11} {:>11}\n", "rank", "items", "receive(s)", "compute(s)", "finish(s)");
  for (const RankTimes& t : r.ranks)
    out += fmt::format("{:>5} {:>9} {:>11.4f} {:>11.4f} {:>11.4f}\n", t.rank, t.items, t.receive, t.compute, t.finish);
  out += fmt::format("makespan {:.4f} s\n", r.makespan);
  if (r.predicted_makespan >= 0) {
    out += fmt::format("planned send order ({}, root last):", r.order);
    for (int rank : r.send_order) out += fmt::format(" {}", rank);
    out += fmt::format("\npredicted makespan (platform model) {:.6g}\n", r.predicted_makespan);
  }
  out += fmt::format("checksum {:.17g} (sequential {:.17g}): {}\n", r.checksum, r.sequential_checksum,
                     r.integrity ? "every ray traced exactly once" : "INTEGRITY CHECK FAILED: " + r.integrity_message);
  return out;
}

}  // namespace seismic
