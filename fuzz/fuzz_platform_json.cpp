// libFuzzer target for the platform reader: any input either parses into a valid platform or is
// refused with one hetlb::Error line; nothing else may escape, crash or leak.
#include <cstdint>
#include <string>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const hetlb::Platform pf = hetlb::io::parse_platform_json(text, "fuzz.json");
    if (pf.processors.empty() || pf.root >= pf.processors.size()) __builtin_trap();
    for (const auto& p : pf.processors)
      if (p.name.empty() || p.compute(hetlb::Count{1}) < 0 || p.comm(hetlb::Count{1}) < 0) __builtin_trap();
  } catch (const hetlb::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
