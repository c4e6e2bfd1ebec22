/* hetlb_mpi, C interface: the errors every part of the library returns (plans, one-shot scatters, ring
 * redistribution, the diffusion runtime): MPI_SUCCESS or an MPI error class registered by hetlb
 * (MPI_Error_string prints it). hetlb/mpi/plan.h includes this header. */
#ifndef HETLB_MPI_ERROR_H
#define HETLB_MPI_ERROR_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* hetlb's errors. The values returned are the MPI error classes of these (hetlb_mpi_error_class). */
enum hetlb_mpi_error {
  HETLB_MPI_E_PLATFORM = 1, /* the platform file cannot be read, or the planner refused it */
  HETLB_MPI_E_SIZE = 2,     /* platform processor count != communicator size */
  HETLB_MPI_E_ROOT = 3,     /* root outside [0, size), or roots differing between ranks */
  HETLB_MPI_E_COUNT = 4,    /* n <= 0, or a count/displacement above INT_MAX */
  HETLB_MPI_E_BUFFER = 5,   /* a null buffer where data is needed */
  HETLB_MPI_E_MPI = 6,      /* an MPI call failed */
  HETLB_MPI_E_TYPE = 7,     /* send and receive type signatures differ, or MPI_DATATYPE_NULL */
  HETLB_MPI_E_PLAN = 8,     /* a null, freed or unknown plan handle */
  HETLB_MPI_E_COMM = 9,     /* a plan used on another communicator, or MPI_COMM_NULL */
  HETLB_MPI_E_ARG = 10      /* a measured time, margin or binding out of range, or differing between ranks */
};
#define HETLB_MPI_E_LAST 10

/* The MPI error class of a hetlb error (registered on first use, MPI must be initialized). */
int hetlb_mpi_error_class(int error);
/* The hetlb error (HETLB_MPI_E_*) of a code returned by hetlb: 0 for MPI_SUCCESS, -1 if not hetlb's. */
int hetlb_mpi_error_of(int code);
/* A static description of a hetlb error or of a code returned by hetlb. */
const char* hetlb_mpi_status_string(int code);
/* 0 turns the "hetlb_mpi: ..." line on stderr off, 1 back on (process-wide; default on). */
void hetlb_mpi_set_error_output(int enabled);

#define HETLB_MPI_SUCCESS MPI_SUCCESS
#define HETLB_MPI_ERR_PLATFORM hetlb_mpi_error_class(HETLB_MPI_E_PLATFORM)
#define HETLB_MPI_ERR_SIZE hetlb_mpi_error_class(HETLB_MPI_E_SIZE)
#define HETLB_MPI_ERR_ROOT hetlb_mpi_error_class(HETLB_MPI_E_ROOT)
#define HETLB_MPI_ERR_COUNT hetlb_mpi_error_class(HETLB_MPI_E_COUNT)
#define HETLB_MPI_ERR_BUFFER hetlb_mpi_error_class(HETLB_MPI_E_BUFFER)
#define HETLB_MPI_ERR_MPI hetlb_mpi_error_class(HETLB_MPI_E_MPI)
#define HETLB_MPI_ERR_TYPE hetlb_mpi_error_class(HETLB_MPI_E_TYPE)
#define HETLB_MPI_ERR_PLAN hetlb_mpi_error_class(HETLB_MPI_E_PLAN)
#define HETLB_MPI_ERR_COMM hetlb_mpi_error_class(HETLB_MPI_E_COMM)
#define HETLB_MPI_ERR_ARG hetlb_mpi_error_class(HETLB_MPI_E_ARG)

#ifdef __cplusplus
}
#endif

#endif /* HETLB_MPI_ERROR_H */
