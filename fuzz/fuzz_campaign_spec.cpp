// libFuzzer target for the campaign spec reader: the input is written to a file and read as a spec;
// it is refused with one hetlb::Error line, or it gives at most kMaxSettings settings, each with a key
// of one value per key column.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "hetlb/error.hpp"
#include "spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A spec names topology and load files by path: no paths here (/dev/stdin would wait for input;
  // fuzz_diffusion_files covers those readers).
  for (std::size_t i = 0; i < size; ++i)
    if (data[i] == '/') return 0;
  static const std::string path = "/tmp/hetlb-fuzz-spec-" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const hetlb::campaign::Spec spec = hetlb::campaign::read_spec(path);
    if (spec.settings.size() > hetlb::campaign::kMaxSettings) __builtin_trap();
    for (const auto& s : spec.settings)
      if (s.values.size() != hetlb::campaign::kKeyColumns.size() || s.key.empty()) __builtin_trap();
  } catch (const hetlb::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
