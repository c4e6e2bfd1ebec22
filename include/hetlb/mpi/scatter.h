/* hetlb_mpi, C interface: one-shot calls (each plans, runs and frees a plan; hetlb/mpi/plan.h for the
 * persistent plan, the conventions and the errors). */
#ifndef HETLB_MPI_SCATTER_H
#define HETLB_MPI_SCATTER_H

#include <mpi.h>

#include "hetlb/mpi/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* HETLB_MPI_SCATTER_H */
