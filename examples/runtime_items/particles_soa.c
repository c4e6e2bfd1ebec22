/* Particles kept as a structure of arrays, balanced by the diffusion runtime through the C callbacks
 * (docs/runtime.md, "Items"): the program keeps id[], x[], v[] and a trail of the last positions whose
 * length differs per particle (1 to 5 values: items of variable size). pack() copies one particle out
 * of the arrays and fills its slot with the last one; unpack() appends. Every step the program calls
 * MPI_Allgatherv of every (id, x) (the n-body pattern), computes its particles' accelerations from
 * all positions in id order, moves them, then iteration_done(). All particles start on rank 0, the
 * case that hung the asynchronous runtime; the runtime is bulk-synchronous, so no rank waits for load.
 *
 *   mpirun -np 4 hetlb-particles-soa [particles] [steps] [thread]
 *
 * At the end rank 0 gathers every particle and compares it, bit for bit, with one rank's computation
 * of the same steps; exit 0 when equal and every particle was held once. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hetlb/mpi/diffusion.h"

typedef struct {
  size_t n, cap;
  uint64_t* id;
  double *x, *v, *trail; /* trail: 5 slots per particle, the first trail_length(id) used */
} Particles;

static size_t trail_length(uint64_t id) { return (size_t)(id % 5) + 1; }

static void reserve(Particles* p, size_t n) {
  if (n <= p->cap) return;
  p->cap = n * 2;
  p->id = realloc(p->id, p->cap * sizeof *p->id);
  p->x = realloc(p->x, p->cap * sizeof *p->x);
  p->v = realloc(p->v, p->cap * sizeof *p->v);
  p->trail = realloc(p->trail, p->cap * 5 * sizeof *p->trail);
}

static size_t index_of(const Particles* p, uint64_t id) {
  for (size_t i = 0; i < p->n; ++i)
    if (p->id[i] == id) return i;
  fprintf(stderr, "particles-soa: particle %llu not held\n", (unsigned long long)id);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 0;
}

static size_t bytes_of(uint64_t id, void* user) {
  (void)user;
  return (2 + trail_length(id)) * sizeof(double);
}

static void pack(uint64_t id, void* buffer, void* user) {
  Particles* p = user;
  const size_t i = index_of(p, id), last = p->n - 1;
  double* out = buffer;
  out[0] = p->x[i];
  out[1] = p->v[i];
  memcpy(out + 2, p->trail + 5 * i, trail_length(id) * sizeof(double));
  p->id[i] = p->id[last]; /* the last particle fills the slot */
  p->x[i] = p->x[last];
  p->v[i] = p->v[last];
  memcpy(p->trail + 5 * i, p->trail + 5 * last, 5 * sizeof(double));
  p->n = last;
}

static void unpack(uint64_t id, const void* buffer, size_t bytes, void* user) {
  Particles* p = user;
  const double* in = buffer;
  if (bytes != bytes_of(id, NULL)) {
    fprintf(stderr, "particles-soa: particle %llu arrived with %zu bytes\n", (unsigned long long)id, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  reserve(p, p->n + 1);
  p->id[p->n] = id;
  p->x[p->n] = in[0];
  p->v[p->n] = in[1];
  memset(p->trail + 5 * p->n, 0, 5 * sizeof(double));
  memcpy(p->trail + 5 * p->n, in + 2, trail_length(id) * sizeof(double));
  ++p->n;
}

/* One step of particle `id` at x, v, given every position in id order. */
static void advance(uint64_t id, double* x, double* v, double* trail, const double* all, size_t total) {
  double a = 0;
  for (size_t j = 0; j < total; ++j)
    if (j != id) a += (all[j] - *x) * 1e-3;
  *v += a * 0.01;
  *x += *v * 0.01;
  memmove(trail + 1, trail, (trail_length(id) - 1) * sizeof(double));
  trail[0] = *x;
}

static void pause_us(long us) {
  struct timespec t = {0, us * 1000};
  nanosleep(&t, NULL);
}

int main(int argc, char** argv) {
  const int thread = argc > 3 && strcmp(argv[3], "thread") == 0;
  int provided = 0, rank = 0, size = 0;
  MPI_Init_thread(&argc, &argv, thread ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const size_t total = argc > 1 ? (size_t)atol(argv[1]) : 40 * (size_t)size;
  const long steps = argc > 2 ? atol(argv[2]) : 150;

  Particles p = {0, 0, NULL, NULL, NULL, NULL};
  reserve(&p, 16);
  if (rank == 0)
    for (uint64_t id = 0; id < total; ++id) {
      reserve(&p, p.n + 1);
      p.id[p.n] = id;
      p.x[p.n] = (double)id;
      p.v[p.n] = 0;
      memset(p.trail + 5 * p.n, 0, 5 * sizeof(double));
      ++p.n;
    }

  hetlb_diffusion_options o;
  hetlb_diffusion_options_init(&o); /* topology auto: a torus on 4 ranks */
  o.bulk_synchronous = 1;
  o.balance = "load";
  o.integer = 1;
  o.progress_thread = thread;
  o.end_on_convergence = 0; /* the program runs its steps, then stop() */
  hetlb_diffusion* lb = NULL;
  if (hetlb_diffusion_create_with_callbacks(MPI_COMM_WORLD, &o, bytes_of, pack, unpack, NULL, &p, &lb) !=
      HETLB_DIFFUSION_SUCCESS) {
    if (rank == 0) fprintf(stderr, "particles-soa: %s\n", hetlb_diffusion_last_error());
    MPI_Finalize();
    return 1;
  }
  for (size_t i = 0; i < p.n; ++i) hetlb_diffusion_add(lb, p.id[i], NULL);
  hetlb_diffusion_start(lb);

  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  double* mine = malloc(sizeof(double) * 2 * (total + 1));
  double* gathered = malloc(sizeof(double) * 2 * (total + 1));
  double* all = malloc(sizeof(double) * (total + 1));
  int running = 1;
  for (long s = 0; s < steps; ++s) {
    int n = (int)(2 * p.n), at = 0;
    for (size_t i = 0; i < p.n; ++i) mine[2 * i] = (double)p.id[i], mine[2 * i + 1] = p.x[i];
    MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) displs[r] = at, at += counts[r];
    MPI_Allgatherv(mine, n, MPI_DOUBLE, gathered, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    if ((size_t)at != 2 * total) {
      fprintf(stderr, "particles-soa: step %ld: %d particles held\n", s, at / 2);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int k = 0; k < at; k += 2) all[(size_t)gathered[k]] = gathered[k + 1];
    for (size_t i = 0; i < p.n; ++i) advance(p.id[i], &p.x[i], &p.v[i], p.trail + 5 * i, all, total);
    pause_us(20 * (long)p.n); /* the particles' cost, emulated */
    hetlb_diffusion_iteration_done(lb, &running);
    if (hetlb_diffusion_size(lb) != p.n) {
      fprintf(stderr, "particles-soa: the runtime and the arrays disagree\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  hetlb_diffusion_stop(lb);

  /* Every particle (id, x, v, trail) on rank 0, against one rank's computation. */
  double* rec = malloc(sizeof(double) * 8 * (p.n + 1));
  for (size_t i = 0; i < p.n; ++i) {
    rec[8 * i] = (double)p.id[i];
    rec[8 * i + 1] = p.x[i];
    rec[8 * i + 2] = p.v[i];
    memcpy(rec + 8 * i + 3, p.trail + 5 * i, 5 * sizeof(double));
  }
  int n = (int)(8 * p.n), at = 0;
  MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; ++r) displs[r] = at, at += counts[r];
  double* every = malloc(sizeof(double) * 8 * (total + 1));
  MPI_Gatherv(rec, n, MPI_DOUBLE, every, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  char* json = NULL;
  hetlb_diffusion_metrics_json(lb, &json);
  int failed = 0;
  if (rank == 0) {
    double *x = malloc(sizeof(double) * total), *v = malloc(sizeof(double) * total),
           *trail = calloc(5 * total, sizeof(double)), *positions = malloc(sizeof(double) * total);
    for (size_t i = 0; i < total; ++i) x[i] = (double)i, v[i] = 0;
    for (long s = 0; s < steps; ++s) {
      memcpy(positions, x, sizeof(double) * total);
      for (size_t i = 0; i < total; ++i) advance(i, &x[i], &v[i], trail + 5 * i, positions, total);
    }
    char* seen = calloc(total, 1);
    if ((size_t)at != 8 * total) failed = 1;
    for (int k = 0; !failed && k < at; k += 8) {
      const size_t id = (size_t)every[k];
      if (id >= total || seen[id]++) failed = 1;
      else if (every[k + 1] != x[id] || every[k + 2] != v[id] ||
               memcmp(every + k + 3, trail + 5 * id, trail_length(id) * sizeof(double)) != 0)
        failed = 1;
    }
    printf("particles-soa: %zu particles, %ld steps on %d ranks (%s): %s\n", total, steps, size,
           thread ? "thread" : "calls", failed ? "DIFFERENT from one rank's" : "equal to one rank's, bit for bit");
    if (!json || !strstr(json, "\"data_transfer_amount\"") || strstr(json, "\"data_transfer_amount\": 0.0"))
      failed = 1; /* the particles must have moved */
    free(json), free(x), free(v), free(trail), free(positions), free(seen);
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  hetlb_diffusion_free(&lb);
  free(counts), free(displs), free(mine), free(gathered), free(all), free(rec), free(every);
  free(p.id), free(p.x), free(p.v), free(p.trail);
  MPI_Finalize();
  return failed;
}
