/* Asynchronous iterative load balancing in MPI programs (Couturier & Giersch's diffusion strategies,
 * the simulator's node model), C interface. See docs/mpi.md, "Asynchronous iterative load balancing".
 *
 * Every function returns HETLB_DIFFUSION_SUCCESS or an error code; collective functions return the same
 * code on every rank, and hetlb_diffusion_last_error() gives the same one-line reason on every rank. */
#ifndef HETLB_MPI_DIFFUSION_H
#define HETLB_MPI_DIFFUSION_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hetlb_diffusion_status {
  HETLB_DIFFUSION_SUCCESS = 0,
  HETLB_DIFFUSION_ERR_ARG = 1,      /* unknown strategy, k < 1, item size 0, bad period, ... */
  HETLB_DIFFUSION_ERR_TOPOLOGY = 2, /* topology does not fit the rank count, bad edge list, asymmetric graph */
  HETLB_DIFFUSION_ERR_STATE = 3,    /* call out of order (add after start, item of a finished run, ...) */
  HETLB_DIFFUSION_ERR_MPI = 4
};

typedef struct hetlb_diffusion_options {
  const char* topology;           /* line|ring|torus|hypercube|complete or an edge-list file; NULL: torus */
  const char* strategy;           /* none|simple|makhoul|besteffort; NULL: besteffort */
  double k;                       /* best effort's divisor, >= 1 */
  int virtual_load;               /* announce transfers on control messages */
  int integer;                    /* integer load (DASUD's rules) */
  double min_balancing_period;    /* s between two decisions of a rank */
  double min_computing_period;    /* s: iteration_done() makes iterations last at least this long */
  long iterations;                /* consecutive computing iterations within tolerance to converge */
  double tolerance;               /* 0.01: within 1% of the average */
  double time_limit;              /* s after start; 0: none */
  int progress_thread;            /* receiving and balancing in a thread (needs MPI_THREAD_MULTIPLE) */
  int use_comm_graph;             /* comm is the application's distributed-graph communicator */
} hetlb_diffusion_options;

typedef struct hetlb_diffusion hetlb_diffusion;

/* Defaults of the C++ interface (torus, best effort k=1, period 1 ms, 2000 iterations, 1%). */
void hetlb_diffusion_options_init(hetlb_diffusion_options* options);

/* Collective: a balancer holding items of item_bytes bytes each. */
int hetlb_diffusion_create(MPI_Comm comm, const hetlb_diffusion_options* options, size_t item_bytes,
                           hetlb_diffusion** out);
/* Local, before start: one item (item_bytes bytes copied from payload). */
int hetlb_diffusion_add(hetlb_diffusion* lb, uint64_t id, const void* payload);
int hetlb_diffusion_start(hetlb_diffusion* lb); /* collective */
size_t hetlb_diffusion_size(const hetlb_diffusion* lb);
uint64_t hetlb_diffusion_id(const hetlb_diffusion* lb, size_t i);
void* hetlb_diffusion_item(hetlb_diffusion* lb, size_t i);
/* End of a computing iteration; *running = 0 once the run has ended (every rank agreed). */
int hetlb_diffusion_iteration_done(hetlb_diffusion* lb, int* running);
int hetlb_diffusion_progress(hetlb_diffusion* lb);
int hetlb_diffusion_stop(hetlb_diffusion* lb); /* collective */
int hetlb_diffusion_threaded(const hetlb_diffusion* lb);
/* Collective: the metrics as JSON; *json (malloc'd, free() it) on rank 0, NULL elsewhere. */
int hetlb_diffusion_metrics_json(hetlb_diffusion* lb, char** json);
void hetlb_diffusion_free(hetlb_diffusion* lb);
const char* hetlb_diffusion_last_error(void);

#ifdef __cplusplus
}
#endif
#endif /* HETLB_MPI_DIFFUSION_H */
