// Bindings of the ring redistribution planner (Renard, Robert, Vivien) and its verifier.
#pragma once
#include <pybind11/pybind11.h>

namespace hetlb::python {

void bind_ring(pybind11::module_& m);

}  // namespace hetlb::python
