// The scale of a simulated diffusion run (Couturier & Giersch, "Simulation"; include/hetlb/diffusion/run_scale.hpp).
#include "hetlb/diffusion/run_scale.hpp"

#include <fmt/format.h>

#include <cmath>

#include "hetlb/error.hpp"

namespace hetlb::diffusion {

double tau_of(double average, double ratio) { return average * ratio * kSecondsPerUnitPerRatio; }

double time_limit_of(double limit, long long iterations, double tau) {
  return limit > 0 ? limit : kDefaultLimitPerIteration * static_cast<double>(iterations) * tau;
}

std::string shortest_tau_text() { return fmt::format("{:g}", kShortestTau); }

void check_run_scale(double total, double average, double ratio, double time_limit) {
  const double tau = tau_of(average, ratio);
  if (!(tau >= kShortestTau))
    throw Error(fmt::format("average load {} x ratio {} gives tau = {} s; expected tau >= {} s (a larger load per "
                            "node or ratio; dates are resolved to 1e-9 s)",
                            average, ratio, tau, shortest_tau_text()));
  // SimGrid never completes an execution of inf flops.
  const double flops = total * ratio * kFlopsPerUnitPerRatio;
  if (!std::isfinite(flops) || !std::isfinite(time_limit))
    throw Error(fmt::format("total load {} x ratio {}: {:.6g} flops and a time limit of {:.6g} s; expected finite "
                            "amounts (a smaller load per node, ratio, time limit or number of iterations)",
                            total, ratio, flops, time_limit));
}

}  // namespace hetlb::diffusion
