/* An n-body code balanced by the diffusion runtime with the simplest calls (docs/runtime.md): the
 * bodies are the runtime's items, every step shares every position with the program's own
 * MPI_Allgatherv, computes the forces on this rank's bodies from all of them (O(n^2)), moves them, and
 * calls the untimed hetlb_diffusion_iteration_done(), which measures the computing time (the waits in
 * MPI_Allgatherv excluded) and moves bodies from slow ranks to fast ones.
 *   --no-balance   the same loop without the runtime: every rank keeps its block of bodies.
 * Unlike machines are emulated: a rank of speed s computes its bodies for real, then waits until the
 * step has lasted (its bodies x all bodies) x --unit / s. At the end rank 0 checks that every body is
 * held exactly once and equals a serial computation of the same steps, bit for bit.
 *   mpirun -np 4 hetlb-particles --speeds 1,1,0.5,0.25 [--bodies 2000] [--steps 40] [--no-balance] */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "hetlb/mpi/diffusion.h"

typedef struct {
  double x[3], v[3];
  uint64_t id;
} Body;

static int rank, size;
static long bodies = 2000, steps = 40;
static double unit = 5e-8, speeds[64];

/* The same bodies on every run: positions in the unit cube, at rest. */
static Body initial(uint64_t id) {
  Body b = {{0, 0, 0}, {0, 0, 0}, id};
  uint64_t s = id * 0x9E3779B97F4A7C15ull + 1;
  for (int d = 0; d < 3; ++d) {
    s ^= s >> 31, s *= 0xBF58476D1CE4E5B9ull, s ^= s >> 29;
    b.x[d] = (double)(s >> 11) / 9007199254740992.0;
  }
  return b;
}

/* One step of body b, given every position (3 per body, in id order): the same arithmetic in the
 * same order wherever b is, so the result is the serial one bit for bit. */
static void advance(Body* b, const double* all, long n) {
  const double dt = 1e-3, eps2 = 1e-4, mass = 1.0 / (double)n;
  double a[3] = {0, 0, 0};
  for (long j = 0; j < n; ++j) { /* the body itself adds 0 */
    const double dx = all[3 * j] - b->x[0], dy = all[3 * j + 1] - b->x[1], dz = all[3 * j + 2] - b->x[2];
    const double r2 = dx * dx + dy * dy + dz * dz + eps2, f = mass / (r2 * sqrt(r2));
    a[0] += f * dx, a[1] += f * dy, a[2] += f * dz;
  }
  for (int d = 0; d < 3; ++d) b->v[d] += a[d] * dt, b->x[d] += b->v[d] * dt;
}

/* The emulated machine: the step lasts work x unit / speed (computing, then waiting the rest, less
 * what the previous waits overslept: a loaded machine wakes a sleeper late). */
static void emulate(double work, double started) {
  static double overslept = 0;
  const double left = work * unit / speeds[rank] - (MPI_Wtime() - started) - overslept;
  overslept = left > 0 ? 0 : fmin(-left, overslept);
  if (left <= 0) return;
  struct timespec t = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
  const double from = MPI_Wtime();
  nanosleep(&t, NULL);
  overslept = fmax(0, MPI_Wtime() - from - left);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int balance = 1, bad = size > 64;
  for (int r = 0; r < 64; ++r) speeds[r] = 1;
  for (int i = 1; i < argc && !bad; ++i) {
    const int more = i + 1 < argc;
    if (strcmp(argv[i], "--no-balance") == 0) balance = 0;
    else if (more && strcmp(argv[i], "--bodies") == 0) bodies = atol(argv[++i]);
    else if (more && strcmp(argv[i], "--steps") == 0) steps = atol(argv[++i]);
    else if (more && strcmp(argv[i], "--unit") == 0) unit = atof(argv[++i]);
    else if (more && strcmp(argv[i], "--speeds") == 0) {
      char* p = argv[++i];
      for (int r = 0; r < size && !bad; ++r) {
        speeds[r] = strtod(p, &p);
        bad = !(speeds[r] > 0);
        if (*p == ',') ++p;
      }
    } else bad = 1;
  }
  if (bad || bodies < size || bodies > 1000000 || steps < 1 || !(unit >= 0)) {
    if (rank == 0) fprintf(stderr, "particles: expected [--bodies N] [--steps S] [--speeds s0,s1,...] [--unit SECONDS] [--no-balance]\n");
    MPI_Finalize();
    return 2;
  }

  /* Each rank starts with a block of bodies: in the runtime, or in an array of its own (--no-balance). */
  const long first = bodies * rank / size, count0 = bodies * (rank + 1) / size - first;
  Body* kept = malloc(sizeof(Body) * (size_t)count0);
  hetlb_diffusion* lb = NULL;
  if (balance) {
    hetlb_diffusion_options o;
    hetlb_diffusion_options_init(&o); /* balance by time, speeds measured, hybrid balancer */
    o.bulk_synchronous = 1;
    o.end_on_convergence = 0; /* the program runs its steps, then stops */
    if (hetlb_diffusion_create(MPI_COMM_WORLD, &o, sizeof(Body), &lb) != HETLB_DIFFUSION_SUCCESS) {
      if (rank == 0) fprintf(stderr, "particles: %s\n", hetlb_diffusion_last_error());
      MPI_Finalize();
      return 1;
    }
    for (long i = 0; i < count0; ++i) {
      const Body b = initial((uint64_t)(first + i));
      hetlb_diffusion_add(lb, b.id, &b);
    }
    hetlb_diffusion_set_balancer(lb, NULL, steps); /* the number of steps: what a global step can gain */
    hetlb_diffusion_start(lb);
  } else {
    for (long i = 0; i < count0; ++i) kept[i] = initial((uint64_t)(first + i));
  }

  int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
  double *mine = malloc(sizeof(double) * 4 * (size_t)bodies), *gathered = malloc(sizeof(double) * 4 * (size_t)bodies);
  double* all = malloc(sizeof(double) * 3 * (size_t)bodies);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long s = 0; s < steps; ++s) {
    const size_t held = balance ? hetlb_diffusion_size(lb) : (size_t)count0;
    /* Every (id, position) to every rank, then the positions in id order. */
    int n = 4 * (int)held, at = 0;
    for (size_t i = 0; i < held; ++i) {
      const Body* b = balance ? hetlb_diffusion_item(lb, i) : &kept[i];
      mine[4 * i] = (double)b->id;
      memcpy(mine + 4 * i + 1, b->x, sizeof b->x);
    }
    MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) displs[r] = at, at += counts[r];
    MPI_Allgatherv(mine, n, MPI_DOUBLE, gathered, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int k = 0; k < at; k += 4) memcpy(all + 3 * (size_t)gathered[k], gathered + k + 1, 3 * sizeof(double));
    /* This rank's bodies, then the emulated speed. */
    const double computing = MPI_Wtime();
    for (size_t i = 0; i < held; ++i) advance(balance ? hetlb_diffusion_item(lb, i) : &kept[i], all, bodies);
    emulate((double)held * (double)bodies, computing);
    if (balance) {
      int running = 1;
      hetlb_diffusion_iteration_done(lb, &running); /* may hand bodies over */
    }
  }
  if (balance) hetlb_diffusion_stop(lb);
  const double seconds = MPI_Wtime() - start;

  /* Every body at rank 0: each id exactly once, each body the serial computation's. */
  const size_t held = balance ? hetlb_diffusion_size(lb) : (size_t)count0;
  Body* out = malloc(sizeof(Body) * (held + 1));
  for (size_t i = 0; i < held; ++i) out[i] = balance ? *(const Body*)hetlb_diffusion_item(lb, i) : kept[i];
  int n = (int)(held * sizeof(Body)), at = 0;
  MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; ++r) displs[r] = at, at += counts[r];
  Body* every = rank == 0 ? malloc((size_t)at + 1) : NULL;
  MPI_Gatherv(out, n, MPI_BYTE, every, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  int failed = 0;
  if (rank == 0) {
    Body* serial = malloc(sizeof(Body) * (size_t)bodies);
    for (long i = 0; i < bodies; ++i) serial[i] = initial((uint64_t)i);
    for (long s = 0; s < steps; ++s) {
      for (long i = 0; i < bodies; ++i) memcpy(all + 3 * i, serial[i].x, sizeof serial[i].x);
      for (long i = 0; i < bodies; ++i) advance(&serial[i], all, bodies);
    }
    char* seen = calloc((size_t)bodies, 1);
    const long got = at / (long)sizeof(Body);
    failed = got != bodies;
    for (long k = 0; k < got && !failed; ++k) {
      const uint64_t id = every[k].id;
      failed = id >= (uint64_t)bodies || seen[id]++ ||
               memcmp(every[k].x, serial[id].x, sizeof serial[id].x) || memcmp(every[k].v, serial[id].v, sizeof serial[id].v);
    }
    double speed = 0;
    for (int r = 0; r < size; ++r) speed += speeds[r];
    const double ideal = (double)steps * (double)bodies * (double)bodies * unit / speed;
    printf("particles: %s, %ld bodies, %ld steps on %d ranks: %.3f s (ideal %.3f s, %.2fx), bodies held",
           balance ? "balanced" : "not balanced", bodies, steps, size, seconds, ideal, seconds / ideal);
    for (int r = 0; r < size; ++r) printf(" %d", counts[r] / (int)sizeof(Body));
    if (failed) printf(": DIFFERENT from the serial computation\n");
    else printf(": every body once, equal to the serial computation\n");
    free(serial), free(seen);
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  hetlb_diffusion_free(&lb);
  free(kept), free(counts), free(displs), free(mine), free(gathered), free(all), free(out), free(every);
  MPI_Finalize();
  return failed;
}
