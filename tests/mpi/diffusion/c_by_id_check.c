/* Gather and scatter by id through the C interface (hetlb/mpi/diffusion.h), items the program keeps
 * (callbacks): rank 0 starts with 300 items (ids 0..299) whose payload is one double, kept in the
 * program's own array. Bulk-synchronous, every iteration: the payloads, given in item order, are
 * gathered at root 0 and checked there (every id once, in id order, its frame's value), the root writes
 * the next frame and scatters it back, and each rank checks the values of the ids it holds. A NULL local
 * (the balancer's items, which it does not hold here) and a payload size of 0 are refused with the same
 * code on every rank. At the end the items must have moved. Exit 0 when every check passes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "hetlb/mpi/diffusion.h"

#define ITEMS 300

static double value[ITEMS]; /* the program's items, by id */
static int held[ITEMS];

static size_t size_of(uint64_t id, void* user) {
  (void)id;
  (void)user;
  return sizeof(double);
}
static void pack(uint64_t id, void* buffer, void* user) {
  (void)user;
  memcpy(buffer, &value[id], sizeof(double));
  held[id] = 0;
}
static void unpack(uint64_t id, const void* buffer, size_t bytes, void* user) {
  (void)user;
  (void)bytes;
  memcpy(&value[id], buffer, sizeof(double));
  held[id] = 1;
}

static double value_of(uint64_t id, int frame) { return frame * 1000.0 + (double)id; }

static void check(int ok, int rank, const char* what) {
  if (ok) return;
  fprintf(stderr, "c-by-id-check: rank %d: %s (%s)\n", rank, what, hetlb_diffusion_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The same code on every rank. */
static void agreed(int status, int expected, int rank, const char* what) {
  int lo = status, hi = status;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  check(lo == expected && hi == expected, rank, what);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hetlb_diffusion_options o;
  hetlb_diffusion_options_init(&o);
  o.balance = "load";
  o.tolerance = 0.05;
  o.iterations = 10;
  o.time_limit = 20;
  o.bulk_synchronous = 1;
  hetlb_diffusion* lb = NULL;
  check(hetlb_diffusion_create_with_callbacks(MPI_COMM_WORLD, &o, size_of, pack, unpack, NULL, NULL, &lb) ==
            HETLB_DIFFUSION_SUCCESS,
        rank, "create");
  if (rank == 0)
    for (uint64_t id = 0; id < ITEMS; ++id) {
      value[id] = value_of(id, 0);
      held[id] = 1;
      check(hetlb_diffusion_add(lb, id, NULL) == HETLB_DIFFUSION_SUCCESS, rank, "add");
    }
  check(hetlb_diffusion_start(lb) == HETLB_DIFFUSION_SUCCESS, rank, "start");
  check(hetlb_diffusion_total_items(lb) == ITEMS, rank, "total_items");
  static double frame[ITEMS];
  static uint64_t ids[ITEMS];
  double* local = malloc(ITEMS * sizeof(double));
  int running = 1, f = 0;
  for (; running; ++f) {
    const size_t n = hetlb_diffusion_size(lb);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t id = hetlb_diffusion_id(lb, i);
      check(held[id], rank, "an item the balancer lists is the program's");
      local[i] = value[id];
    }
    check(hetlb_diffusion_gather_by_id(lb, local, sizeof(double), frame, ids, 0) == HETLB_DIFFUSION_SUCCESS, rank,
          "gather_by_id");
    if (rank == 0)
      for (uint64_t k = 0; k < ITEMS; ++k) {
        check(ids[k] == k, rank, "the root's ids in id order");
        check(frame[k] == value_of(k, f), rank, "the root's payloads in id order, each its frame's value");
        frame[k] = value_of(k, f + 1);
      }
    check(hetlb_diffusion_scatter_by_id(lb, frame, sizeof(double), local, 0) == HETLB_DIFFUSION_SUCCESS, rank,
          "scatter_by_id");
    for (size_t i = 0; i < n; ++i) {
      const uint64_t id = hetlb_diffusion_id(lb, i);
      check(local[i] == value_of(id, f + 1), rank, "the scatter gives each rank its ids' payloads");
      value[id] = local[i];
    }
    check(hetlb_diffusion_iteration_done(lb, &running) == HETLB_DIFFUSION_SUCCESS, rank, "iteration_done");
  }
  agreed(hetlb_diffusion_gather_by_id(lb, NULL, sizeof(double), frame, NULL, 0), HETLB_DIFFUSION_ERR_ARG, rank,
         "local = NULL with the program's items: refused everywhere");
  agreed(hetlb_diffusion_gather_by_id(lb, local, 0, frame, NULL, 0), HETLB_DIFFUSION_ERR_ARG, rank,
         "item_bytes 0: refused everywhere");
  agreed(hetlb_diffusion_scatter_by_id(lb, frame, sizeof(double), local, size), HETLB_DIFFUSION_ERR_ARG, rank,
         "a root out of range: refused everywhere");
  agreed(hetlb_diffusion_gather_by_id(NULL, local, sizeof(double), frame, NULL, 0), HETLB_DIFFUSION_ERR_ARG, rank,
         "NULL balancer");
  long long mine = 0, all = 0;
  for (int id = 0; id < ITEMS; ++id) mine += held[id];
  MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  check(all == ITEMS, rank, "every item held by exactly one rank");
  long long first = rank == 0 ? (long long)hetlb_diffusion_size(lb) : 0;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  check(size == 1 || first < ITEMS, rank, "items moved");
  if (rank == 0) printf("c-by-id-check: %d frames gathered and scattered, rank 0 holds %lld of %d\n", f, first, ITEMS);
  free(local);
  hetlb_diffusion_free(&lb);
  MPI_Finalize();
  return 0;
}
