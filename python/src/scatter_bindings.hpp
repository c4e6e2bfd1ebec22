// Bindings of the scatter planner (RR-4770): platforms and plans.
#pragma once
#include <pybind11/pybind11.h>

namespace hetlb::python {

void bind_scatter(pybind11::module_& m);

}  // namespace hetlb::python
