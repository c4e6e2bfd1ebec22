#include "earth_model.hpp"

#include <cmath>

namespace seismic {

std::vector<Layer> earth_model(int layers) {
  constexpr double kDepth = 660, kMoho = 35;
  const double h = kDepth / layers;
  std::vector<Layer> model;
  for (int i = 0; i < layers; ++i) {
    const double z = (i + 0.5) * h;  // layer middle
    const double vp = z < kMoho ? 5.8 + 0.7 * z / kMoho : 8.0 + 2.3 * (z - kMoho) / (kDepth - kMoho);
    model.push_back({h, vp, vp / std::sqrt(3.0)});
  }
  return model;
}

double model_depth(const std::vector<Layer>& model) {
  double d = 0;
  for (const Layer& l : model) d += l.thickness;
  return d;
}

}  // namespace seismic
