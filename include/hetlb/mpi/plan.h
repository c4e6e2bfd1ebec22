/* hetlb_mpi, C interface: a persistent load-balanced scatter/gather plan (RR-4770, Sections 2 and 5:
 * "replacing MPI_Scatter by MPI_Scatterv calls parameterized with clever distributions", and the
 * results gathered back).
 *
 * Platform model: a hetlb platform JSON file (README.md, "The platform file"). After `count` expansion
 * processor k is rank k of the communicator (or bound by host name: hetlb_mpi_plan_create_bound); the
 * processor count must equal the communicator size. Or no file: hetlb_mpi_plan_create_measured.
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
 * A collective call made by only some ranks of the communicator is erroneous, as in MPI: undefined,
 * in practice the callers wait for the others, possibly forever.
 *
 * Errors: every function returns MPI_SUCCESS (HETLB_MPI_SUCCESS) or an MPI error class registered by
 * hetlb with MPI_Add_error_class (MPI_Error_string prints it). Argument errors are agreed: the same
 * code on every rank, never a crash or a hang (when every rank makes the call). A failure of MPI itself returns HETLB_MPI_ERR_MPI on the
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

#include "hetlb/mpi/error.h"  /* HETLB_MPI_E_*, HETLB_MPI_ERR_*, hetlb_mpi_error_class */

#ifdef __cplusplus
extern "C" {
#endif

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
/* How processors are bound to ranks (hetlb_mpi_plan_create_bound). POSITION: processor k of the file
 * (after count expansion) runs on rank k. HOST: a processor runs on a rank of its host, the host being
 * the processor's name or, for a `count` entry, its name without the "-<j>" suffix, compared with
 * MPI_Get_processor_name (the environment variable HETLB_MPI_HOST overrides it); a host's processors go
 * to its ranks in rank order, and a host with as many processors as ranks is required. */
#define HETLB_MPI_BIND_POSITION 0
#define HETLB_MPI_BIND_HOST 1

/* Collective. hetlb_mpi_plan_create with a binding (the same on every rank, else HETLB_MPI_ERR_ARG).
 * Under POSITION too, a file whose processors name the ranks' hosts in another order than the ranks'
 * is refused (HETLB_MPI_ERR_PLATFORM, the same on every rank): reorder it or bind by HOST. */
int hetlb_mpi_plan_create_bound(const char* platform_path, long long n, int root, int binding, MPI_Comm comm,
                                hetlb_mpi_plan* plan);

/* Collective. A plan from measured costs, no platform file: each rank passes its own seconds per item
 * (e.g. its first iteration's computing time over its item count; > 0), and the root times its link
 * to every rank with a few short messages (an empty one and one of about 64 KB to 1 MB) when its
 * item_bytes (bytes per item on the wire) is > 0; with 0 the links count as free and the plan is
 * proportional to the speeds. Only the root's n and item_bytes count. Predictions are in seconds. */
int hetlb_mpi_plan_create_measured(double seconds_per_item, int item_bytes, long long n, int root, MPI_Comm comm,
                                   hetlb_mpi_plan* plan);

/* Layouts of a plan's items (docs/weighted-items.md). COUNTS: items cost alike, blocks in rank order
 * (displs are prefix sums in rank order). CONTIGUOUS: weighted items keep their order, each rank one
 * range, the ranges in send order. ANY: weighted items anywhere; the root's buffers stay in item order
 * and hetlb_mpi_plan_scatter/gather permute them. */
#define HETLB_MPI_LAYOUT_COUNTS 0
#define HETLB_MPI_LAYOUT_CONTIGUOUS 1
#define HETLB_MPI_LAYOUT_ANY 2

/* Collective. A plan for n items of unequal cost: the root's weights[k] >= 0 is the work of item k (the
 * platform's per-item costs become per unit of work) and layout CONTIGUOUS or ANY. Only the root's n,
 * weights and layout count. hetlb_mpi_plan_item_ids tells each rank which items it holds. */
int hetlb_mpi_plan_create_weighted(const char* platform_path, long long n, const double* weights, int layout,
                                   int root, MPI_Comm comm, hetlb_mpi_plan* plan);
/* Local. This rank's item ids (its count of them, see hetlb_mpi_plan_share), in the order of its block. */
int hetlb_mpi_plan_item_ids(hetlb_mpi_plan plan, long long* ids);

/* Local. This rank's predicted computing time for its share (Tcomp(rank, count), the platform's time
 * unit: seconds for measured plans and hetlb calibrate's files); may be NULL. */
int hetlb_mpi_plan_predicted(hetlb_mpi_plan plan, double* compute_seconds);

/* The plan's self-check (hetlb_mpi_plan_check). */
enum hetlb_mpi_plan_status {
  HETLB_MPI_PLAN_ON_TRACK = 0,  /* every rank within the margin of its prediction (or never checked) */
  HETLB_MPI_PLAN_STALE = 1,     /* some rank departs by more than the margin; the plan is unchanged */
  HETLB_MPI_PLAN_REPLANNED = 2  /* it did, and the plan was made again from the measured times */
};

/* Collective. Each rank passes the seconds it spent computing its share in one iteration (not waiting).
 * The departure of rank r is |seconds_r - predicted_r| / predicted_r over the ranks holding items; when
 * the largest exceeds `margin` (e.g. 0.25: 25%; the same on every rank, as `replan`) the plan is STALE,
 * and with replan != 0 it is made again at the root with each rank's computing cost per item set to its
 * measured seconds / count (links and root unchanged): REPLANNED, same handle, new counts (query
 * hetlb_mpi_plan_share again). status (the same on every rank) and departure (the largest) may be NULL. */
int hetlb_mpi_plan_check(hetlb_mpi_plan plan, double seconds, double margin, int replan, int* status,
                         double* departure);
/* Local. The last check's status, largest departure and the rank where it was (-1 before any check). */
int hetlb_mpi_plan_status(hetlb_mpi_plan plan, int* status, double* departure, int* worst_rank);

/* Collective. Frees the plan and its communicator; *plan becomes HETLB_MPI_PLAN_NULL. */
int hetlb_mpi_plan_free(hetlb_mpi_plan* plan);

#ifdef __cplusplus
}
#endif

#endif /* HETLB_MPI_PLAN_H */
