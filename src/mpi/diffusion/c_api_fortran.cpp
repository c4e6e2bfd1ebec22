// Entry points for the Fortran 2008 module of the diffusion runtime (src/mpi/fortran/
// hetlb_diffusion_f08.f90): the calls that take an MPI handle, with the Fortran handle converted.
#include "blocked_time.hpp"
#include "hetlb/mpi/diffusion.h"

extern "C" {

int hetlb_diffusion_create_f08(MPI_Fint comm, const hetlb_diffusion_options* options, size_t item_bytes,
                               hetlb_diffusion** out) {
  hetlb::mpi::detail::note_fortran_program();  // its MPI calls bypass the runtime's wrappers
  return hetlb_diffusion_create(MPI_Comm_f2c(comm), options, item_bytes, out);
}

}  // extern "C"
