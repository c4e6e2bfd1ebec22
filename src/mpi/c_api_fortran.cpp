// Entry points for the Fortran 2008 module (src/mpi/fortran/hetlb_mpi_f08.f90): the C calls that
// take MPI handles, with Fortran handles (type(MPI_Comm)%MPI_VAL) converted by MPI_*_f2c.
#include "hetlb/mpi/plan.h"

extern "C" {

int hetlb_mpi_plan_create_f08(const char* platform_path, long long n, int root, MPI_Fint comm, hetlb_mpi_plan* plan) {
  return hetlb_mpi_plan_create(platform_path, n, root, MPI_Comm_f2c(comm), plan);
}

int hetlb_mpi_plan_create_measured_f08(double seconds_per_item, int item_bytes, long long n, int root, MPI_Fint comm,
                                       hetlb_mpi_plan* plan) {
  return hetlb_mpi_plan_create_measured(seconds_per_item, item_bytes, n, root, MPI_Comm_f2c(comm), plan);
}

int hetlb_mpi_plan_create_weighted_f08(const char* platform_path, long long n, const double* weights, int layout,
                                       int root, MPI_Fint comm, hetlb_mpi_plan* plan) {
  return hetlb_mpi_plan_create_weighted(platform_path, n, n > 0 ? weights : nullptr, layout, root, MPI_Comm_f2c(comm),
                                        plan);
}

int hetlb_mpi_plan_scatter_f08(hetlb_mpi_plan plan, const void* sendbuf, MPI_Fint sendtype, void* recvbuf,
                               MPI_Fint recvtype) {
  return hetlb_mpi_plan_scatter(plan, sendbuf, MPI_Type_f2c(sendtype), recvbuf, MPI_Type_f2c(recvtype));
}

int hetlb_mpi_plan_gather_f08(hetlb_mpi_plan plan, const void* sendbuf, MPI_Fint sendtype, void* recvbuf,
                              MPI_Fint recvtype) {
  return hetlb_mpi_plan_gather(plan, sendbuf, MPI_Type_f2c(sendtype), recvbuf, MPI_Type_f2c(recvtype));
}

}  // extern "C"
