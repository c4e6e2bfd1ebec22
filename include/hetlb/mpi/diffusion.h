/* Asynchronous iterative load balancing in MPI programs (Couturier & Giersch's diffusion strategies,
 * the simulator's node model), C interface. See docs/runtime.md.
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
  const char* topology;           /* auto|line|ring|torus|hypercube|complete or an edge-list file; NULL: auto
                                     (a torus where the rank count fits, else a ring) */
  const char* strategy;           /* a registered strategy (hetlb strategies) or plugin:PATH; NULL: besteffort */
  double k;                       /* best effort's divisor, >= 1 */
  int virtual_load;               /* announce transfers on control messages */
  int integer;                    /* integer load (DASUD's rules) */
  double min_balancing_period;    /* s between two decisions of a rank, at most 60 */
  double min_computing_period;    /* s (at most 60): iteration_done() makes iterations last this long */
  long iterations;                /* consecutive computing iterations within tolerance to converge */
  double tolerance;               /* 0.01: within 1% of the average */
  double time_limit;              /* s after start; 0: none */
  int progress_thread;            /* receiving and balancing in a thread (needs MPI_THREAD_MULTIPLE) */
  int use_comm_graph;             /* comm is the application's distributed-graph communicator */
  /* Bulk-synchronous mode: every rank calls iteration_done the same number of times; the run ends at
   * the same call everywhere and items move only inside agreed calls (docs/runtime.md). */
  int bulk_synchronous;
  long sync_interval;             /* calls between a contribution to the agreement and its result; 0: adaptive
                                     (every call while out of band, up to 8 once in band; the default);
                                     at most 1,000,000 */
  int wait_for_load;              /* asynchronous mode: iteration_done waits while holding nothing (0) */
  int end_on_convergence;         /* 0: only stop() or time_limit end the run (1) */
  const char* balance;            /* "time" (load / speed) or "load"; NULL: time */
  const double* speeds;           /* speed_count relative speeds, one per rank; NULL: measured */
  int speed_count;
  double speed_time_constant;     /* measured speeds: smoothing time constant in iterations (3) */
  double speed_hysteresis;        /* measured speeds: relative change that updates the speed used (0.1) */
  const char* speeds_file;        /* or a file of speeds: hetlb-calibrate's output as it is, or numbers */
} hetlb_diffusion_options;

typedef struct hetlb_diffusion hetlb_diffusion;

/* Defaults of the C++ interface (auto topology, best effort k=1, period 1 ms, 20 iterations, 1%,
 * asynchronous, balance by time with measured speeds). */
void hetlb_diffusion_options_init(hetlb_diffusion_options* options);

/* Collective: a balancer holding items of item_bytes bytes each. */
int hetlb_diffusion_create(MPI_Comm comm, const hetlb_diffusion_options* options, size_t item_bytes,
                           hetlb_diffusion** out);
/* Collective: a balancer of items the program keeps (Zoltan migration style, sizes may differ per
 * item): size(id) bytes are packed by pack(id, buffer) when an item leaves (the program forgets it) and
 * given to unpack(id, buffer, bytes) when one arrives, inside iteration_done/stop. choose (may be NULL)
 * picks at most `count` held ids leaving toward rank `neighbour` and returns how many (fewer: the rest
 * stays owed); NULL: the items added or received last. Add items with payload NULL. */
typedef size_t (*hetlb_diffusion_size_fn)(uint64_t id, void* user);
typedef void (*hetlb_diffusion_pack_fn)(uint64_t id, void* buffer, void* user);
typedef void (*hetlb_diffusion_unpack_fn)(uint64_t id, const void* buffer, size_t bytes, void* user);
typedef size_t (*hetlb_diffusion_choose_fn)(int neighbour, size_t count, uint64_t* ids, void* user);
int hetlb_diffusion_create_with_callbacks(MPI_Comm comm, const hetlb_diffusion_options* options,
                                          hetlb_diffusion_size_fn size, hetlb_diffusion_pack_fn pack,
                                          hetlb_diffusion_unpack_fn unpack, hetlb_diffusion_choose_fn choose,
                                          void* user, hetlb_diffusion** out);
/* Local, before start: one item (item_bytes bytes copied from payload). */
int hetlb_diffusion_add(hetlb_diffusion* lb, uint64_t id, const void* payload);
int hetlb_diffusion_start(hetlb_diffusion* lb); /* collective */
size_t hetlb_diffusion_size(const hetlb_diffusion* lb);
/* i < size: the i-th item's id / bytes. Out of range (or a NULL lb): UINT64_MAX / NULL, and
 * hetlb_diffusion_last_status() is HETLB_DIFFUSION_ERR_ARG with the reason in _last_error(). */
uint64_t hetlb_diffusion_id(const hetlb_diffusion* lb, size_t i);
void* hetlb_diffusion_item(hetlb_diffusion* lb, size_t i);
/* Item costs (docs/runtime.md, "Item costs"): a rank's load is the sum of its items' costs (finite,
 * > 0; 1 unless set). Local, before start or between iteration_done calls; a cost travels with its
 * item. set_cost: the item `id` held by this rank; set_costs: n == size costs in item order; cost: the
 * i-th item's cost (i < size). */
int hetlb_diffusion_set_cost(hetlb_diffusion* lb, uint64_t id, double cost);
int hetlb_diffusion_set_costs(hetlb_diffusion* lb, const double* costs, size_t n);
int hetlb_diffusion_cost(const hetlb_diffusion* lb, size_t i, double* cost);
/* This rank's load: the sum of its items' costs (0 for a NULL lb). */
double hetlb_diffusion_load(const hetlb_diffusion* lb);
/* Both at once, with a status: *id and *item (NULL for application items). */
int hetlb_diffusion_get(hetlb_diffusion* lb, size_t i, uint64_t* id, void** item);
/* End of a computing iteration; *running = 0 once the run has ended (every rank agreed; in the
 * bulk-synchronous mode at the same call on every rank). Never waits for load unless wait_for_load. */
int hetlb_diffusion_iteration_done(hetlb_diffusion* lb, int* running);
/* The same, told the seconds this rank spent computing in the iteration (for the speed estimate). */
int hetlb_diffusion_iteration_done_timed(hetlb_diffusion* lb, double compute_seconds, int* running);
/* This rank's speed (given, or measured: load per second, smoothed; 0 before the first measurement). */
double hetlb_diffusion_speed(const hetlb_diffusion* lb);
int hetlb_diffusion_progress(hetlb_diffusion* lb);
int hetlb_diffusion_stop(hetlb_diffusion* lb); /* collective */
int hetlb_diffusion_threaded(const hetlb_diffusion* lb);
/* Gather and scatter by id (docs/runtime.md, "Gather and scatter by id"): collective, in the
 * bulk-synchronous mode between iteration_done calls, or once the run has ended (either mode); the same
 * code on every rank, nothing moved on a refusal. local: this rank's payloads of item_bytes bytes, one
 * per item held, in item order (id(0), id(1), ...); NULL: the balancer's own fixed-size items (item_bytes
 * their size). gather: at root, root_out receives total_items payloads in ascending id order (with ids
 * 0..N-1, item id at position id) and root_ids (may be NULL) those ids; elsewhere both are ignored.
 * scatter: root_in (at root, in that order) goes to the ranks holding the ids, into local. */
size_t hetlb_diffusion_total_items(const hetlb_diffusion* lb); /* every rank's items (0 before start) */
/* What the runtime noticed and said once on stderr ("" when nothing; NULL for a NULL handle): a progress
 * thread asked for without MPI_THREAD_MULTIPLE, the program's MPI calls out of the compute-time
 * measure's sight, speeds that stay equal while computing times differ. Valid until the next call on lb. */
const char* hetlb_diffusion_notice(const hetlb_diffusion* lb);
int hetlb_diffusion_gather_by_id(hetlb_diffusion* lb, const void* local, size_t item_bytes, void* root_out,
                                 uint64_t* root_ids, int root);
int hetlb_diffusion_scatter_by_id(hetlb_diffusion* lb, const void* root_in, size_t item_bytes, void* local,
                                  int root);
/* Collective: the metrics as JSON; *json (malloc'd, free() it) on rank 0, NULL elsewhere. */
int hetlb_diffusion_metrics_json(hetlb_diffusion* lb, char** json);
/* Collective. Frees the balancer and sets *lb to NULL; a NULL *lb (freed before) is harmless. */
void hetlb_diffusion_free(hetlb_diffusion** lb);
/* Collective, before start: the balancer, "diffusion", "global" (bulk-synchronous mode: global steps,
 * shares from hetlb's exact planner, items moved any to any) or "hybrid" (diffusion plus a global step
 * when its predicted gain exceeds its cost); NULL keeps the current one ("hybrid" unless changed).
 * total_iterations: the program's declared number of iteration_done calls, 0: unknown (docs/runtime.md,
 * "Global steps"). HETLB_DIFFUSION_ERR_ARG on every rank for a bad value or one that differs between
 * ranks, _ERR_STATE after start. */
int hetlb_diffusion_set_balancer(hetlb_diffusion* lb, const char* balancer, long total_iterations);
const char* hetlb_diffusion_last_error(void);
int hetlb_diffusion_last_status(void); /* the status of the last call on this thread */

#ifdef __cplusplus
}
#endif
#endif /* HETLB_MPI_DIFFUSION_H */
