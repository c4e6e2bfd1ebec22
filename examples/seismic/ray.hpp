// The items of the mini-app: one ray = (source, receiver, wave type), and its tracing.
#pragma once
#include <cstdint>
#include <vector>

#include <mpi.h>

#include "earth_model.hpp"

namespace seismic {

enum WaveType { kDirectP = 0, kDirectS = 1, kReflectedP = 2 };  // reflected: off the model's bottom

// The item scattered by the root: plain doubles, sent as one MPI datatype of 4 doubles.
struct Ray {
  double id;            // index in the original order (exact in a double below 2^53)
  double source_depth;  // km
  double offset;        // epicentral distance to the receiver at the surface, km
  double wave;          // WaveType
};

struct Traced {
  double id;
  double travel_time;  // s
  double ray_parameter;  // s/km
};

// `n` rays drawn from `seed` (the same on every run and every rank).
std::vector<Ray> generate_rays(std::int64_t n, std::uint64_t seed, const std::vector<Layer>& model);

// Shooting by bisection on the ray parameter p until the ray emerges at the receiver's offset:
// X(p) = sum m_i h_i p v_i / sqrt(1 - p^2 v_i^2) (Snell's law in flat layers, m_i the times the ray
// crosses layer i), T(p) = sum m_i h_i / (v_i sqrt(1 - p^2 v_i^2)). The cost grows with the number of
// layers crossed (source depth, reflection), so rays cost different times.
Traced trace(const Ray& ray, const std::vector<Layer>& model);
// The same, adding to `segments` the leg evaluations it made (legs crossed x bisection steps): the
// ray's cost in units of work.
Traced trace(const Ray& ray, const std::vector<Layer>& model, std::int64_t& segments);

// MPI datatypes of Ray and Traced (committed; free with MPI_Type_free).
MPI_Datatype ray_datatype();
MPI_Datatype traced_datatype();

static_assert(sizeof(Ray) == 4 * sizeof(double) && sizeof(Traced) == 3 * sizeof(double));

}  // namespace seismic
