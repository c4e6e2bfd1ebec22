// libFuzzer target for ring schedule files (hetlb ring --schedule) and the independent verifier: the
// input is a schedule for a fixed heterogeneous bidirectional ring of 5 processors; it is refused
// with one hetlb::Error line, or read and verified, and the verifier accepts it only if it moves the
// loads to the targets (checked here by replaying the transfers' items).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hetlb/error.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/ring/verify.hpp"

namespace {
const hetlb::ring::Ring& fixed_ring() {
  static const hetlb::ring::Ring ring = hetlb::io::parse_ring_json(
      R"({"loads": [9, 0, 3, 0, 3], "targets": [3, 3, 3, 3, 3], "succ_cost": [1, 2, 1, 3, 1],
          "pred_cost": [2, 1, 1, 1, 3]})",
      "ring");
  return ring;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const hetlb::ring::Ring& ring = fixed_ring();
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const hetlb::io::RingSchedule s = hetlb::io::parse_ring_schedule_json(text, ring, "fuzz.json");
    const std::optional<std::string> violation = hetlb::ring::verify_schedule(ring, s.transfers, s.time);
    if (violation && violation->find('\n') != std::string::npos) __builtin_trap();
    if (!violation) {  // accepted: the items moved must turn the loads into the targets
      std::vector<hetlb::Count> held = ring.loads;
      for (const auto& t : s.transfers) {
        if (t.from >= held.size() || t.to >= held.size()) __builtin_trap();
        held[t.from] -= t.items;
        held[t.to] += t.items;
      }
      if (held != ring.targets) __builtin_trap();
    }
  } catch (const hetlb::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
