// The build's identity as the `build` object of every JSON output (include/hetlb/build_info.hpp).
#pragma once
#include <nlohmann/json.hpp>

#include "hetlb/build_info.hpp"

namespace hetlb::io {

inline nlohmann::json build_json() {
  const BuildInfo& b = build_info();
  return {{"id", build_id()},   {"version", b.version}, {"commit", b.commit}, {"dirty", b.dirty},
          {"simgrid", b.simgrid}, {"mpi", b.mpi},       {"glpk", b.glpk}};
}

}  // namespace hetlb::io
