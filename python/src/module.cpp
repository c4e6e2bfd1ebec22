// hetlb._hetlb: the compiled part of the Python package `hetlb` (pybind11). The pure-Python package
// (python/hetlb/) gives the documented, keyword-argument interface on top of it.
#include <pybind11/pybind11.h>

#include "errors.hpp"
#include "ring_bindings.hpp"
#include "scatter_bindings.hpp"
#include "simulation_bindings.hpp"

PYBIND11_MODULE(_hetlb, m) {
  m.doc() = "hetlb's C++ library (load balancing on heterogeneous platforms); use the `hetlb` package.";
  m.attr("__version__") = HETLB_VERSION;
  hetlb::python::register_errors(m);
  hetlb::python::bind_scatter(m);
  hetlb::python::bind_ring(m);
  hetlb::python::bind_simulation(m);
}
