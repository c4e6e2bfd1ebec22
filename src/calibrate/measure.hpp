// The measurements behind a calibrated platform (RR-4770, Section 5.1: Tcomp and Tcomm "come from a
// series of benchmarks"), shared by hetlb-calibrate and hetlb-seismic's built-in calibration.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "hetlb/model/platform.hpp"
#include "kernel_loader.hpp"

namespace hetlb::calibrate {

struct Settings {
  std::vector<long long> sizes{500, 1000, 2000, 4000};        // items timed with the kernel
  std::vector<long long> comm_sizes{1000, 10000, 100000};     // items sent from the root
  double bytes_per_item = 8;
  double quantile = 0.2;    // the value kept of each point's samples (0.5: the median)
  double relative = 0.05;   // target half-width of the 95% confidence interval of that quantile
  double max_seconds = 1.0; // cap per measured point, all its rounds together
  int rounds = 3;           // each point's samples taken in this many rounds, interleaved with the others
  int root = 0;
  long long sample_range = 0;  // > 0: each timing starts at a random item of [0, range - size] (item_sampler.hpp)
  unsigned long long seed = 1;
};

struct Point {
  long long items = 0;
  double mean = 0, half_width = 0;  // seconds: the samples' quantile, half-width of its 95% interval
  long long samples = 0;
  bool converged = false;  // the interval reached Settings::relative before the cap
};

struct Measurements {
  std::vector<std::vector<Point>> compute;  // [rank][size], complete on rank 0
  std::vector<std::vector<Point>> comm;     // [rank][size], complete on rank 0 (zeros for the root)
  int ranks = 0;
  int busiest_node_ranks = 0, busiest_node_cores = 0;  // most ranks on one node, and its cores
  int waves = 1;  // compute timings taken in this many turns (one rank at a time on an oversubscribed node)
  bool kernel_failed = false;  // this rank's kernel returned non-zero (to be agreed by the caller)
  double seconds = 0;
};

// Collective over comm. Every point starts after a barrier. When a node has more ranks than cores,
// its ranks time the kernel one at a time (never two on a core) while the others sleep in a non-busy
// barrier, so they take no CPU from it; otherwise all ranks time it together. Each point is repeated
// until the distribution-free 95% confidence interval of a low quantile of its samples is within
// settings.relative of it (5 samples at least) or settings.max_seconds. The samples of a point come in
// settings.rounds rounds, each after every other point and rank has had its turn, and the quantile is
// taken over all of them: a slow spell of a shared machine (another tenant, a throttled core) then
// falls on part of every rank's samples rather than on all of one rank's. Not the mean: on a shared
// machine preemption and other tenants only ever add time, and a low quantile is what the kernel
// costs when it runs undisturbed. Communication: the root ping-pongs every rank in turn, the others
// asleep; a transfer is a round trip less half of a one-byte round trip.
Measurements measure(const Kernel& kernel, const Settings& settings, MPI_Comm comm);

// Rank 0: affine least-squares fits (model "affine") or the measured points ("table"); items from
// `items` when positive, else the largest measured size times the rank count.
Platform fit_platform(const Measurements& m, const Settings& settings, const std::string& model,
                      const std::string& name, long long items);

// Rank 0: the platform JSON with every processor's measurements kept beside its models
// ("calibration": items, mean seconds, 95% CI half-widths, samples) and how they were taken.
std::string platform_json_with_measurements(const Platform& platform, const Measurements& m, const Settings& settings);

}  // namespace hetlb::calibrate
