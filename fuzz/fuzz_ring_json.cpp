// libFuzzer target for the ring reader, and through it the ring planners and the verifier: any input
// is either refused with one hetlb::Error line or parsed into a ring whose plan (for small rings)
// passes the independent verifier.
#include <cstdint>
#include <numeric>
#include <string>

#include "hetlb/error.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const hetlb::ring::Ring r = hetlb::io::parse_ring_json(text, "fuzz.json");
    const hetlb::Count total = std::accumulate(r.loads.begin(), r.loads.end(), hetlb::Count{0});
    if (r.size() <= 64 && total <= 100000) {
      const hetlb::ring::Plan plan = hetlb::ring::plan_redistribution(r);
      if (hetlb::ring::verify_schedule(r, plan.transfers, plan.time)) __builtin_trap();
      if (plan.lower_bound > plan.time * (1 + 1e-9) + 1e-9) __builtin_trap();
    }
  } catch (const hetlb::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
