#include "errors.hpp"

#include "hetlb/error.hpp"

namespace hetlb::python {

void register_errors(pybind11::module_&) {
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const hetlb::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

}  // namespace hetlb::python
