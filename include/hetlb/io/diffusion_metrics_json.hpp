// The metrics that the simulator and the MPI runtime both report (hetlb/diffusion/metrics.hpp), as
// JSON members; a date or amount that is not finite (no node converged) is written as null.
#pragma once
#include <nlohmann/json.hpp>

#include "hetlb/diffusion/metrics.hpp"

namespace hetlb::io {

nlohmann::json finite_or_null(double x);

// Adds converged, dates, idle time, data moved, totals, spread, message and iteration counts to `j`.
void add_diffusion_metrics(nlohmann::json& j, const diffusion::Metrics& m);

}  // namespace hetlb::io
