// The scale of a simulated diffusion run (Couturier & Giersch, "Simulation": a load unit costs ratio ms
// of computation; tau, the time to compute the average load, is the unit of the study's dates). One rule
// for the simulator and for campaign specs, which refuse a run that cannot be simulated before any run.
#pragma once
#include <string>

namespace hetlb::diffusion {

// A load unit is ratio ms of computation on a 1 Gflop/s host (docs/simulation.md).
inline constexpr double kSecondsPerUnitPerRatio = 1e-3;
inline constexpr double kFlopsPerUnitPerRatio = 1e6;
// Shortest tau simulated: SimGrid resolves dates to 1e-9 s, and iterations of tau/10 must stay well
// above that, or runs end at dates that mean nothing.
inline constexpr double kShortestTau = 1e-6;
// Without a time limit of its own, a run ends at 10 x (convergence iterations) x tau.
inline constexpr double kDefaultLimitPerIteration = 10.0;

// tau = average load x ratio x 1 ms.
double tau_of(double average, double ratio);
// The time limit of a run given `limit` s (0: the default for `iterations` and tau).
double time_limit_of(double limit, long long iterations, double tau);

// Throws Error (naming the load, the ratio and what was expected) when tau < kShortestTau, or the
// total work (total x ratio x 1e6 flops) or the time limit is not a finite double.
void check_run_scale(double total, double average, double ratio, double time_limit);

// kShortestTau as written in refusals ("1e-06").
std::string shortest_tau_text();

}  // namespace hetlb::diffusion
