// libFuzzer target for the simulator's text readers (edge-list topologies, initial load files):
// the input is written to a file, read as both; either is refused with one hetlb::Error line or
// gives a valid result (a connected symmetric topology; non-negative finite loads).
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "hetlb/diffusion/initial_load.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"

namespace {
void one_line(const hetlb::Error& e) {
  if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/hetlb-fuzz-diffusion-" + std::to_string(::getpid()) + ".txt";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const hetlb::diffusion::Topology t = hetlb::diffusion::read_edge_list(path, 0);
    if (t.size() > 0) hetlb::diffusion::validate_topology(t, "again");  // must not throw now
  } catch (const hetlb::Error& e) {
    one_line(e);
  }
  for (bool integer : {false, true}) {
    try {
      for (double v : hetlb::diffusion::read_initial_load(path, 0, integer))
        if (!(v >= 0) || !std::isfinite(v) || (integer && v != std::floor(v))) __builtin_trap();
    } catch (const hetlb::Error& e) {
      one_line(e);
    }
  }
  return 0;
}
