/* Item costs through the C interface (hetlb/mpi/diffusion.h): set in bulk and one by one, read back,
 * refused when wrong (an id not held, a cost <= 0, a count that is not the item count), carried with the
 * items, and each rank's load (the sum of its costs) balanced at the end while the counts are not.
 * Rank 0 starts with 200 items, every 4th one 10 times costlier. Exit 0 when every check passes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "hetlb/mpi/diffusion.h"

#define ITEMS 200

static double cost_of(uint64_t id) { return id % 4 == 0 ? 10.0 : 1.0; }

static void check(int ok, int rank, const char* what) {
  if (ok) return;
  fprintf(stderr, "c-costs-check: rank %d: %s (%s)\n", rank, what, hetlb_diffusion_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
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
  check(hetlb_diffusion_create(MPI_COMM_WORLD, &o, sizeof(uint64_t), &lb) == HETLB_DIFFUSION_SUCCESS, rank, "create");
  if (rank == 0) {
    double costs[ITEMS];
    for (uint64_t id = 0; id < ITEMS; ++id) {
      check(hetlb_diffusion_add(lb, id, &id) == HETLB_DIFFUSION_SUCCESS, rank, "add");
      costs[id] = 2.0;
    }
    check(hetlb_diffusion_set_costs(lb, costs, ITEMS - 1) == HETLB_DIFFUSION_ERR_ARG, rank, "set_costs, short");
    costs[3] = 0;
    check(hetlb_diffusion_set_costs(lb, costs, ITEMS) == HETLB_DIFFUSION_ERR_ARG, rank, "set_costs, a cost 0");
    costs[3] = 2.0;
    check(hetlb_diffusion_set_costs(lb, costs, ITEMS) == HETLB_DIFFUSION_SUCCESS, rank, "set_costs");
    for (uint64_t id = 0; id < ITEMS; ++id)
      check(hetlb_diffusion_set_cost(lb, id, cost_of(id)) == HETLB_DIFFUSION_SUCCESS, rank, "set_cost");
    check(hetlb_diffusion_set_cost(lb, ITEMS, 1.0) == HETLB_DIFFUSION_ERR_ARG, rank, "set_cost, an id not held");
    check(hetlb_diffusion_set_cost(lb, 0, -1.0) == HETLB_DIFFUSION_ERR_ARG, rank, "set_cost, a negative cost");
    check(hetlb_diffusion_set_cost(lb, 0, NAN) == HETLB_DIFFUSION_ERR_ARG, rank, "set_cost, nan");
    check(hetlb_diffusion_load(lb) == 50 * 10.0 + 150, rank, "load");
  }
  check(hetlb_diffusion_start(lb) == HETLB_DIFFUSION_SUCCESS, rank, "start");
  int running = 1;
  while (running) {
    for (size_t i = 0; i < hetlb_diffusion_size(lb); ++i) {
      uint64_t id = 0;
      void* item = NULL;
      double c = 0;
      check(hetlb_diffusion_get(lb, i, &id, &item) == HETLB_DIFFUSION_SUCCESS && *(uint64_t*)item == id, rank, "item");
      check(hetlb_diffusion_cost(lb, i, &c) == HETLB_DIFFUSION_SUCCESS && c == cost_of(id), rank, "cost carried");
    }
    check(hetlb_diffusion_iteration_done(lb, &running) == HETLB_DIFFUSION_SUCCESS, rank, "iteration_done");
  }
  double c = 0;
  check(hetlb_diffusion_cost(lb, hetlb_diffusion_size(lb), &c) == HETLB_DIFFUSION_ERR_ARG, rank, "cost, out of range");
  const double load = hetlb_diffusion_load(lb), average = 650.0 / size;
  int count = (int)hetlb_diffusion_size(lb), lo = count, hi = count;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  printf("c-costs-check: rank %d: %d items, load %.0f (average %.0f)\n", rank, count, load, average);
  check(fabs(load - average) <= 0.05 * average + 2 * 10.0, rank, "load balanced");
  check(hi > lo, rank, "counts unequal");
  char* json = NULL;
  check(hetlb_diffusion_metrics_json(lb, &json) == HETLB_DIFFUSION_SUCCESS, rank, "metrics (conservation)");
  free(json);
  hetlb_diffusion_free(&lb);
  MPI_Finalize();
  return 0;
}
