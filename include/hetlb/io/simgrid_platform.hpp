// Writes a scatter platform (hetlb JSON) as a SimGrid XML platform, so that the same MPI program
// can run under SMPI on the modelled grid. Each processor becomes a host whose speed computes one
// item in its per-item compute time; each non-root host reaches a central router through a private
// link whose bandwidth and latency give its per-item comm cost and latency; the root's own link is
// as fast as SimGrid allows. Only linear and affine costs translate (tables and compute latencies
// are refused). Transfers follow the model exactly under SimGrid's `--cfg=network/model:CM02
// --cfg=network/crosstraffic:0` (other models add TCP factors).
#pragma once
#include <string>

#include "hetlb/model/platform.hpp"

namespace hetlb::io {

struct SimgridExportOptions {
  double flops_per_item = 1e9;  // work of one item: host speed = flops_per_item / Tcomp per item
  double bytes_per_item = 1e3;  // size of one item: link bandwidth = bytes_per_item / Tcomm per item
};

std::string scatter_platform_to_simgrid_xml(const Platform& platform, const SimgridExportOptions& options = {});

}  // namespace hetlb::io
