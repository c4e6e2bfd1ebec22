/* hetlb_mpi, C interface: a persistent load-balanced scatter/gather plan (RR-4770, Sections 2 and 5:
 * "replacing MPI_Scatter by MPI_Scatterv calls parameterized with clever distributions", and the
 * results gathered back).
 *
 * Platform model: a hetlb platform JSON file (README.md, "The platform file"). After `count` expansion
 * processor k is rank k of the communicator; the processor count must equal the communicator size.
 *
 * Layout: rank r holds the items [displs[r], displs[r] + counts[r]) of the root's buffer, displs being
 * prefix sums of counts in rank order (the MPI_Scatterv convention). The root sends the blocks in the
 * planned order (decreasing bandwidth, its own block last) and gathers them back in that order, or in
 * the reverse order when that finishes earlier under the same model.
 *
 * MPI conventions: every call taking a plan or a communicator is collective over it. As in
 * MPI_Scatterv, only the root's `n`, `platform_path` and send buffer count (the other ranks may pass
 * 0 / NULL); `root` must agree. Send and receive type signatures must match: per element, the root's
 * send type and every receive type have the same size (scatter; the reverse for gather).
 * hetlb_mpi_plan_create duplicates `comm`: hetlb's messages never meet the application's.
 *
 * Errors: every function returns MPI_SUCCESS (HETLB_MPI_SUCCESS) or an MPI error class registered by
 * hetlb with MPI_Add_error_class (MPI_Error_string prints it). Argument errors are agreed: the same
 * code on every rank, never a crash or a hang. A failure of MPI itself returns HETLB_MPI_ERR_MPI on the
 * ranks where MPI reported it. Every error also goes to the error handler of the communicator the plan
 * was created on (MPI_Comm_call_errhandler; with MPI's default MPI_ERRORS_ARE_FATAL the job aborts, so
 * set MPI_ERRORS_RETURN to handle codes). One line "hetlb_mpi: <what>" goes to stderr, from the root
 * (rank 0 when the root itself is in question); hetlb_mpi_set_error_output(0) turns it off.
 *
 * Threads: with MPI_THREAD_MULTIPLE, different threads may use different plans (and one-shot calls on
 * different communicators) at the same time; one plan is used by one thread at a time, like a
 * communicator in collective calls. */
#ifndef HETLB_MPI_PLAN_H
#define HETLB_MPI_PLAN_H

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
  HETLB_MPI_E_COMM = 9      /* a plan used on another communicator, or MPI_COMM_NULL */
};
#define HETLB_MPI_E_LAST 9

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

typedef struct hetlb_mpi_plan_s* hetlb_mpi_plan;
#define HETLB_MPI_PLAN_NULL ((hetlb_mpi_plan)0)

/* Collective. The root reads the platform and plans n items (root's n and path count), the plan is
 * broadcast, comm is duplicated. On error *plan is HETLB_MPI_PLAN_NULL. */
int hetlb_mpi_plan_create(const char* platform_path, long long n, int root, MPI_Comm comm, hetlb_mpi_plan* plan);
/* Local. Arrays of communicator-size ints (any may be NULL): counts and displs in rank order,
 * send_order the ranks in planned send order (root last). */
int hetlb_mpi_plan_counts(hetlb_mpi_plan plan, int* counts, int* displs, int* send_order);
/* Local. This rank's item count and the index of its first item in the root's buffer. */
int hetlb_mpi_plan_share(hetlb_mpi_plan plan, int* count, long long* offset);
/* Local. The ranks in the order the root gathers them (any may be NULL), and the model's completion
 * dates (platform time unit) of the scatter plus computation and of the gather that follows it. */
int hetlb_mpi_plan_gather_order(hetlb_mpi_plan plan, int* gather_order, double* scatter_makespan,
                                double* gather_completion);
/* Collective. The root sends counts[r] elements of sendtype at sendbuf + displs[r] * extent(sendtype)
 * to every rank r; each rank receives its counts[rank] elements of recvtype into recvbuf. The root may
 * pass MPI_IN_PLACE as recvbuf (its block stays in sendbuf; recvtype is ignored there), as in
 * MPI_Scatterv; another rank passing it gets HETLB_MPI_E_BUFFER, on every rank. */
int hetlb_mpi_plan_scatter(hetlb_mpi_plan plan, const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                           MPI_Datatype recvtype);
/* Collective. The reverse: each rank sends its counts[rank] elements of sendtype; the root receives
 * them at recvbuf + displs[r] * extent(recvtype), in the plan's gather order. The root may pass
 * MPI_IN_PLACE as sendbuf (its block is already at its place in recvbuf), as in MPI_Gatherv. */
int hetlb_mpi_plan_gather(hetlb_mpi_plan plan, const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                          MPI_Datatype recvtype);
/* Collective, with the same value on every rank (a disagreement is an error on every rank and leaves
 * the checks on). enabled = 0 drops the agreement check of the plan's scatter and gather (one small
 * nonblocking reduction per call, about 1 us; it matters below about 1 MB): the calls then behave as
 * MPI_Scatterv/MPI_Gatherv do with mismatched arguments, an error only on the ranks that notice it
 * (a wrong number of bytes received, a null buffer), possibly none. On by default. */
int hetlb_mpi_plan_set_checks(hetlb_mpi_plan plan, int enabled);
/* Collective. Frees the plan and its communicator; *plan becomes HETLB_MPI_PLAN_NULL. */
int hetlb_mpi_plan_free(hetlb_mpi_plan* plan);

#ifdef __cplusplus
}
#endif

#endif /* HETLB_MPI_PLAN_H */
