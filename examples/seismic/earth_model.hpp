// A flat layered Earth for the seismic mini-app (RR-4770, Section 2: tracing rays between sources and
// receivers through a velocity model, each ray independent of the others).
#pragma once
#include <vector>

namespace seismic {

struct Layer {
  double thickness = 0;  // km
  double vp = 0;         // P-wave velocity, km/s
  double vs = 0;         // S-wave velocity, km/s
};

// `layers` layers of equal thickness down to 660 km: a crust (5.8-6.5 km/s) over a mantle whose
// velocity grows with depth (8.0 to 10.3 km/s), vs = vp / sqrt(3).
std::vector<Layer> earth_model(int layers = 330);

double model_depth(const std::vector<Layer>& model);  // km

}  // namespace seismic
