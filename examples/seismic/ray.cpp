#include "ray.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace seismic {

std::vector<Ray> generate_rays(std::int64_t n, std::uint64_t seed, const std::vector<Layer>& model) {
  std::mt19937_64 rng(seed);
  const double depth = model_depth(model);
  std::uniform_real_distribution<double> source(1.0, 0.95 * depth), offset(5.0, 3000.0), unit(0.0, 1.0);
  std::vector<Ray> rays(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double u = unit(rng);
    const double wave = u < 0.45 ? kDirectP : u < 0.8 ? kDirectS : kReflectedP;
    const double z = source(rng), x = offset(rng);
    rays[static_cast<std::size_t>(i)] = Ray{static_cast<double>(i), z, x, wave};
  }
  return rays;
}

namespace {

struct Leg {
  double thickness, velocity;
};

// The layers crossed by the ray, each leg once per crossing; a layer cut by the source counts the
// part above (upgoing) or below (downgoing) it.
std::vector<Leg> legs(const Ray& ray, const std::vector<Layer>& model) {
  const bool s_wave = static_cast<int>(ray.wave) == kDirectS;
  const bool reflected = static_cast<int>(ray.wave) == kReflectedP;
  std::vector<Leg> out;
  double top = 0;
  for (const Layer& l : model) {
    const double bottom = top + l.thickness, v = s_wave ? l.vs : l.vp;
    const double above = std::clamp(ray.source_depth - top, 0.0, l.thickness);  // part above the source
    if (above > 0) out.push_back({above, v});                                  // upgoing leg to the surface
    if (reflected) {
      out.push_back({l.thickness - above, v});  // downgoing from the source to the bottom
      if (above > 0) out.push_back({l.thickness - above, v});  // upgoing from the bottom, below the source
    }
    top = bottom;
  }
  return out;
}

void offset_and_time(const std::vector<Leg>& legs, double p, double& x, double& t) {
  x = 0, t = 0;
  for (const Leg& l : legs) {
    const double c = std::sqrt(1.0 - p * p * l.velocity * l.velocity);
    x += l.thickness * p * l.velocity / c;
    t += l.thickness / (l.velocity * c);
  }
}

}  // namespace

Traced trace(const Ray& ray, const std::vector<Layer>& model) {
  std::int64_t segments = 0;
  return trace(ray, model, segments);
}

Traced trace(const Ray& ray, const std::vector<Layer>& model, std::int64_t& segments) {
  const std::vector<Leg> path = legs(ray, model);
  double vmax = 0;
  for (const Leg& l : path) vmax = std::max(vmax, l.velocity);
  double lo = 0, hi = (1.0 - 1e-12) / vmax, x = 0, t = 0, p = 0;
  for (int it = 0; it < 200; ++it) {  // X(p) increases from 0 to infinity on [0, 1/vmax)
    p = 0.5 * (lo + hi);
    offset_and_time(path, p, x, t);
    segments += static_cast<std::int64_t>(path.size());
    if (std::abs(x - ray.offset) <= 1e-9 * ray.offset) break;
    (x < ray.offset ? lo : hi) = p;
  }
  return Traced{ray.id, t, p};
}

MPI_Datatype ray_datatype() {
  MPI_Datatype type;
  MPI_Type_contiguous(4, MPI_DOUBLE, &type);
  MPI_Type_commit(&type);
  return type;
}

MPI_Datatype traced_datatype() {
  MPI_Datatype type;
  MPI_Type_contiguous(3, MPI_DOUBLE, &type);
  MPI_Type_commit(&type);
  return type;
}

}  // namespace seismic
