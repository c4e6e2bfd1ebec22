/* Schedule perturbation for MPI programs (issue 65, item 3): a profiling-interface (PMPI) interposition
 * library, loaded with LD_PRELOAD, that makes message arrival orders and progress interleavings vary from
 * run to run in a way a seed fixes. Built as libhetlb-perturb-mpi.so (tests/perturb/CMakeLists.txt) and
 * used by tests/perturb/perturbed_runs.py:
 *
 *   mpirun -x LD_PRELOAD=build/tests/libhetlb-perturb-mpi.so -x HETLB_PERTURB_SEED=7 ... build/bin/hetlb-diffuse ...
 *
 * Environment (read once, when the library is loaded):
 *   HETLB_PERTURB_SEED    a whole number; unset or empty: the library does nothing (every call passes through)
 *   HETLB_PERTURB_PROB    probability that a call is delayed before it, and (drawn again) after it (0.1)
 *   HETLB_PERTURB_MAX_US  longest delay, microseconds (1000); a delay is a sched_yield() (one in three) or a
 *                         sleep of 1 to MAX_US microseconds, uniform
 *   HETLB_PERTURB_DEFER   probability that MPI_Iprobe, MPI_Test or MPI_Testall (or MPI_Request_get_status) reports
 *                         "nothing yet" without asking MPI (0.25): a message seen later, a send or receive seen
 *                         completed later; what a slower network or a busier MPI progress engine does. Never for
 *                         null requests, which MPI reports complete
 *   HETLB_PERTURB_REPORT  non-empty: at MPI_Finalize each rank prints one line on stderr:
 *                         "hetlb-perturb: rank R seed S: C calls, D delays (T ms), Y yields, F deferred"
 *
 * Calls perturbed: the point-to-point, probe and completion calls and the collectives the diffusion runtime
 * and hetlb-diffuse make (grep MPI_ src/mpi/diffusion): MPI_Isend, MPI_Irecv, MPI_Send, MPI_Recv, MPI_Iprobe,
 * MPI_Probe, MPI_Test, MPI_Testall, MPI_Request_get_status, MPI_Wait, MPI_Waitall, MPI_Iallgather,
 * MPI_Allgather, MPI_Allreduce, MPI_Barrier, MPI_Bcast, MPI_Gather, MPI_Gatherv.
 *
 * Both names of each call are defined. A program linking hetlb_mpi statically (hetlb-diffuse) defines its
 * own MPI_Recv, MPI_Wait, ... (the blocked-time wrappers, src/mpi/diffusion/blocked_mpi_calls.cpp), which its
 * calls reach without the dynamic linker, and those call PMPI_*: the PMPI_ definitions here catch them. The
 * MPI_ definitions catch every other call and pass on to the next definition (a shared libhetlb_mpi's
 * wrapper, or MPI's); a PMPI_ call made inside one of them passes through unperturbed.
 *
 * Same seed, same perturbation: each rank (OMPI_COMM_WORLD_RANK, PMI_RANK or PMIX_RANK) and each thread
 * (the main thread 0, the others numbered in the order of their first perturbed call) draws from its own
 * stream of splitmix64 numbers, seeded from (seed, rank, thread); the n-th perturbed call of a thread always
 * gets the same decisions. The interleavings those decisions cause still depend on the machine. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- settings and statistics ---- */

static int enabled;
static uint64_t seed;
static double prob = 0.1, defer_prob = 0.25;
static long max_us = 1000;
static int report;
static int rank_of_process;
static atomic_long n_calls, n_delays, n_yields, n_deferred;
static atomic_llong delay_ns;
static atomic_int next_thread = 1;

static uint64_t splitmix64(uint64_t* s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static _Thread_local struct {
  int ready;
  uint64_t state;
  int depth; /* inside one of this library's MPI_ definitions: PMPI_ calls pass through */
} me;

static double uniform(void) { /* [0, 1) */
  if (!me.ready) {
    const int thread = syscall(SYS_gettid) == getpid() ? 0 : atomic_fetch_add(&next_thread, 1);
    me.state = seed ^ 0x6A09E667F3BCC908ull;
    me.state = splitmix64(&me.state) ^ ((uint64_t)(unsigned)rank_of_process << 20) ^ (uint64_t)thread;
    me.state = splitmix64(&me.state);
    me.ready = 1;
  }
  return (double)(splitmix64(&me.state) >> 11) * 0x1p-53;
}

static double number(const char* name, double fallback) {
  const char* text = getenv(name);
  if (text == NULL || *text == '\0') return fallback;
  char* end = NULL;
  const double v = strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= 0)) {
    fprintf(stderr, "hetlb-perturb: %s=%s: expected a number >= 0\n", name, text);
    exit(2);
  }
  return v;
}

/* ---- the real calls ---- */

#define REAL(name) static __typeof__(&P##name) real_##name, next_##name
REAL(MPI_Isend);
REAL(MPI_Irecv);
REAL(MPI_Send);
REAL(MPI_Recv);
REAL(MPI_Iprobe);
REAL(MPI_Probe);
REAL(MPI_Test);
REAL(MPI_Testall);
REAL(MPI_Request_get_status);
REAL(MPI_Wait);
REAL(MPI_Waitall);
REAL(MPI_Iallgather);
REAL(MPI_Allgather);
REAL(MPI_Allreduce);
REAL(MPI_Barrier);
REAL(MPI_Bcast);
REAL(MPI_Gather);
REAL(MPI_Gatherv);
REAL(MPI_Finalize);

/* A process without MPI (mpirun itself, when LD_PRELOAD reaches it) never calls these: the library stays off. */
static int missing;
static void* lookup(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (f == NULL) missing = 1;
  return f;
}

/* real_X: the next PMPI_X (MPI's own); next_X: the next MPI_X (a wrapper of another library, or MPI's). */
#define RESOLVE(name)                                   \
  do {                                                  \
    *(void**)&real_##name = lookup("P" #name);          \
    *(void**)&next_##name = lookup(#name);              \
  } while (0)

__attribute__((constructor)) static void perturb_init(void) {
  const char* text = getenv("HETLB_PERTURB_SEED");
  enabled = text != NULL && *text != '\0';
  if (enabled) {
    char* end = NULL;
    seed = strtoull(text, &end, 10);
    if (*end != '\0') {
      fprintf(stderr, "hetlb-perturb: HETLB_PERTURB_SEED=%s: expected a whole number\n", text);
      exit(2);
    }
  }
  prob = number("HETLB_PERTURB_PROB", prob);
  defer_prob = number("HETLB_PERTURB_DEFER", defer_prob);
  max_us = (long)number("HETLB_PERTURB_MAX_US", (double)max_us);
  if (prob > 1 || defer_prob >= 1) {
    fprintf(stderr, "hetlb-perturb: expected HETLB_PERTURB_PROB <= 1 and HETLB_PERTURB_DEFER < 1\n");
    exit(2);
  }
  if (max_us < 1) max_us = 1;
  const char* r = getenv("HETLB_PERTURB_REPORT");
  report = r != NULL && *r != '\0';
  const char* names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
  for (int i = 0; i < 3; ++i)
    if (getenv(names[i]) != NULL) {
      rank_of_process = atoi(getenv(names[i]));
      break;
    }
  RESOLVE(MPI_Isend);
  RESOLVE(MPI_Irecv);
  RESOLVE(MPI_Send);
  RESOLVE(MPI_Recv);
  RESOLVE(MPI_Iprobe);
  RESOLVE(MPI_Probe);
  RESOLVE(MPI_Test);
  RESOLVE(MPI_Testall);
  RESOLVE(MPI_Request_get_status);
  RESOLVE(MPI_Wait);
  RESOLVE(MPI_Waitall);
  RESOLVE(MPI_Iallgather);
  RESOLVE(MPI_Allgather);
  RESOLVE(MPI_Allreduce);
  RESOLVE(MPI_Barrier);
  RESOLVE(MPI_Bcast);
  RESOLVE(MPI_Gather);
  RESOLVE(MPI_Gatherv);
  RESOLVE(MPI_Finalize);
  if (missing) enabled = 0;
}

/* ---- the perturbations ---- */

static void delay(void) {
  if (!enabled || !(uniform() < prob)) return;
  const double u = uniform();
  atomic_fetch_add(&n_delays, 1);
  if (u < 1.0 / 3) {
    atomic_fetch_add(&n_yields, 1);
    sched_yield();
    return;
  }
  const long us = 1 + (long)((u - 1.0 / 3) * 1.5 * (double)max_us);
  const struct timespec t = {us / 1000000, (us % 1000000) * 1000};
  atomic_fetch_add(&delay_ns, (long long)us * 1000);
  nanosleep(&t, NULL);
}

/* The call was asked and is not answered yet (MPI_Iprobe, MPI_Test, ...). */
static int defer(void) {
  if (!enabled || !(uniform() < defer_prob)) return 0;
  atomic_fetch_add(&n_deferred, 1);
  return 1;
}

static int any_active(int count, const MPI_Request* requests) {
  for (int i = 0; i < count; ++i)
    if (requests[i] != MPI_REQUEST_NULL) return 1;
  return 0;
}

/* MPI_X: delay, the next MPI_X (its PMPI_X calls pass through), delay.
 * PMPI_X: inside an MPI_X of this library, straight to MPI's; otherwise delay, MPI's, delay. */
#define OUTER(name, call)              \
  do {                                 \
    if (!enabled) return next_##name call; \
    atomic_fetch_add(&n_calls, 1);     \
    delay();                           \
    ++me.depth;                        \
    const int rc = next_##name call;   \
    --me.depth;                        \
    delay();                           \
    return rc;                         \
  } while (0)
#define INNER(name, call)                            \
  do {                                               \
    if (!enabled || me.depth > 0) return real_##name call; \
    atomic_fetch_add(&n_calls, 1);                   \
    delay();                                         \
    const int rc = real_##name call;                 \
    delay();                                         \
    return rc;                                       \
  } while (0)
#define BOTH(name, params, call)                   \
  int name params { OUTER(name, call); }           \
  int P##name params { INNER(name, call); }

BOTH(MPI_Isend, (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request),
     (buf, count, type, dest, tag, comm, request))
BOTH(MPI_Irecv, (void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request),
     (buf, count, type, source, tag, comm, request))
BOTH(MPI_Send, (const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm),
     (buf, count, type, dest, tag, comm))
BOTH(MPI_Recv, (void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status),
     (buf, count, type, source, tag, comm, status))
BOTH(MPI_Probe, (int source, int tag, MPI_Comm comm, MPI_Status* status), (source, tag, comm, status))
BOTH(MPI_Wait, (MPI_Request* request, MPI_Status* status), (request, status))
BOTH(MPI_Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]), (count, requests, statuses))
BOTH(MPI_Iallgather, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
BOTH(MPI_Allgather, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm),
     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
BOTH(MPI_Allreduce, (const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
     (sendbuf, recvbuf, count, type, op, comm))
BOTH(MPI_Barrier, (MPI_Comm comm), (comm))
BOTH(MPI_Bcast, (void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm), (buffer, count, type, root, comm))
BOTH(MPI_Gather, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm),
     (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
BOTH(MPI_Gatherv, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),
     (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))

/* The polling calls may also answer "not yet" (defer), leaving the message or the request as it is. */
#define POLL(name, params, call, deferrable, answer_not_yet) \
  int name params {                                          \
    if (!enabled) return next_##name call;                   \
    atomic_fetch_add(&n_calls, 1);                           \
    delay();                                                 \
    if ((deferrable) && defer()) {                           \
      answer_not_yet;                                        \
      return MPI_SUCCESS;                                    \
    }                                                        \
    ++me.depth;                                              \
    const int rc = next_##name call;                         \
    --me.depth;                                              \
    delay();                                                 \
    return rc;                                               \
  }                                                          \
  int P##name params {                                       \
    if (!enabled || me.depth > 0) return real_##name call;   \
    atomic_fetch_add(&n_calls, 1);                           \
    delay();                                                 \
    if ((deferrable) && defer()) {                           \
      answer_not_yet;                                        \
      return MPI_SUCCESS;                                    \
    }                                                        \
    const int rc = real_##name call;                         \
    delay();                                                 \
    return rc;                                               \
  }

POLL(MPI_Iprobe, (int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status), (source, tag, comm, flag, status),
     source != MPI_PROC_NULL, *flag = 0)
POLL(MPI_Test, (MPI_Request* request, int* flag, MPI_Status* status), (request, flag, status),
     *request != MPI_REQUEST_NULL, *flag = 0)
POLL(MPI_Testall, (int count, MPI_Request requests[], int* flag, MPI_Status statuses[]), (count, requests, flag, statuses),
     any_active(count, requests), *flag = 0)
POLL(MPI_Request_get_status, (MPI_Request request, int* flag, MPI_Status* status), (request, flag, status),
     request != MPI_REQUEST_NULL, *flag = 0)

static void print_report(void) {
  if (!enabled || !report) return;
  fprintf(stderr, "hetlb-perturb: rank %d seed %llu: %ld calls, %ld delays (%.1f ms), %ld yields, %ld deferred\n",
          rank_of_process, (unsigned long long)seed, atomic_load(&n_calls), atomic_load(&n_delays),
          (double)atomic_load(&delay_ns) * 1e-6, atomic_load(&n_yields), atomic_load(&n_deferred));
  fflush(stderr);
}

int MPI_Finalize(void) {
  print_report();
  ++me.depth;
  const int rc = next_MPI_Finalize();
  --me.depth;
  return rc;
}

int PMPI_Finalize(void) {
  if (me.depth == 0) print_report();
  return real_MPI_Finalize();
}
