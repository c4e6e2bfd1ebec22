// hetlb._hetlb_mpi._Balancer: the diffusion runtime (hetlb/mpi/diffusion.hpp) over an mpi4py
// communicator and a numpy array of fixed-size records; hetlb/balancer.py gives its documented face.
#pragma once
#include <mpi.h>
#include <pybind11/pybind11.h>

namespace hetlb::python {

// `comm_of` reads the MPI_Comm of an mpi4py communicator (mpi_module.cpp).
void bind_balancer(pybind11::module_& m, MPI_Comm (*comm_of)(pybind11::handle));

}  // namespace hetlb::python
