// Bindings of the SimGrid simulations: diffusion (Couturier, Giersch) and scatter replay (RR-4770).
#pragma once
#include <pybind11/pybind11.h>

namespace hetlb::python {

void bind_simulation(pybind11::module_& m);

}  // namespace hetlb::python
