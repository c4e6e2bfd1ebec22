// hetlb's refusals become Python exceptions: hetlb::Error -> ValueError with the library's one-line
// message (the command line prints the same line after "hetlb: error: ").
#pragma once
#include <pybind11/pybind11.h>

namespace hetlb::python {

void register_errors(pybind11::module_& m);

}  // namespace hetlb::python
