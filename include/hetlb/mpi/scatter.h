/* hetlb_mpi, C interface: a load-balanced replacement for MPI_Scatter (RR-4770, Sections 2 and 5:
 * "replacing MPI_Scatter by MPI_Scatterv calls parameterized with clever distributions").
 *
 * Platform model: a hetlb platform JSON file (see README.md). After `count` expansion its processors
 * are mapped to ranks of the communicator one to one: processor k <-> rank k. The processor count
 * must equal the communicator size.
 *
 * Item layout: rank r receives the contiguous items [displs[r], displs[r] + counts[r]) of the root's
 * buffer, with displs the prefix sums of counts in rank order (the MPI_Scatterv convention). The root
 * sends the blocks in the planned order (decreasing bandwidth, the root's own block last).
 *
 * Arguments n, root, platform_path must be the same on every rank. Calls are collective.
 *
 * Errors: every function returns HETLB_MPI_SUCCESS or one of the codes below, the same code on every
 * rank (the verdict is broadcast from rank 0, so no rank hangs). On error, rank 0 prints one line
 * "hetlb_mpi: <what>" on stderr. The library never calls MPI_Abort; the caller decides. */
#ifndef HETLB_MPI_SCATTER_H
#define HETLB_MPI_SCATTER_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hetlb_mpi_status {
  HETLB_MPI_SUCCESS = 0,
  HETLB_MPI_ERR_PLATFORM = 1,   /* the platform file cannot be read, or the planner refused it */
  HETLB_MPI_ERR_SIZE = 2,       /* platform processor count != communicator size */
  HETLB_MPI_ERR_ROOT = 3,       /* root outside [0, size) */
  HETLB_MPI_ERR_COUNT = 4,      /* n <= 0, or a count/displacement above INT_MAX */
  HETLB_MPI_ERR_BUFFER = 5,     /* a receive capacity smaller than the rank's count, or a null buffer */
  HETLB_MPI_ERR_MPI = 6         /* an MPI call failed */
};

/* The distribution alone, for codes that call MPI_Scatterv themselves. counts and displs are arrays
 * of communicator-size ints filled on every rank (displs in rank order, ready for MPI_Scatterv);
 * send_order (may be NULL) receives the ranks in planned send order, root last. */
int hetlb_mpi_scatterv_counts(const char* platform_path, long long n, int root, MPI_Comm comm,
                              int* counts, int* displs, int* send_order);

/* The call that replaces MPI_Scatter: the root's sendbuf holds n items of `type`; every rank receives
 * its planned share into recvbuf (capacity recv_capacity items). On return *count is the rank's item
 * count and *offset its first item's index in the root's buffer. When plan_comm is not NULL it
 * receives a new communicator (free it with MPI_Comm_free) whose rank order is the send order. */
int hetlb_mpi_scatter(const void* sendbuf, long long n, MPI_Datatype type, void* recvbuf,
                      int recv_capacity, int root, const char* platform_path, MPI_Comm comm,
                      int* count, long long* offset, MPI_Comm* plan_comm);

/* A static description of a status code ("platform/communicator size mismatch", ...). */
const char* hetlb_mpi_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* HETLB_MPI_SCATTER_H */
