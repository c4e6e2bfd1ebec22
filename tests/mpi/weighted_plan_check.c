/* hetlb_mpi_plan_create_weighted under mpirun (4 ranks, the platform's speeds 1, 1, 2, 4): items of
 * unequal cost (the middle third 17 times costlier), both layouts. Each rank learns its item ids,
 * receives exactly those items through the plan's scatter, and the plan's gather puts every result
 * back at its item's place at the root (conservation: every item once). The plan's predicted makespan
 * is within 2% of the ideal (work / total speed). Bad arguments at the root: the same error on every
 * rank. Usage: weighted_plan_check PLATFORM.json */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "hetlb/mpi/plan.h"

#define N 300

static int rank, size, failures;

static void expect(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

static void run_layout(const char* platform, const double* weights, int layout) {
  hetlb_mpi_plan plan;
  int rc = hetlb_mpi_plan_create_weighted(platform, N, rank == 0 ? weights : NULL, layout, 0, MPI_COMM_WORLD, &plan);
  expect(rc == MPI_SUCCESS, "create_weighted");
  if (rc != MPI_SUCCESS) return;
  int count = 0;
  long long offset = 0;
  hetlb_mpi_plan_share(plan, &count, &offset);
  long long* ids = malloc(sizeof(long long) * (size_t)(count > 0 ? count : 1));
  hetlb_mpi_plan_item_ids(plan, ids);
  if (layout == HETLB_MPI_LAYOUT_CONTIGUOUS)
    for (int k = 0; k < count; ++k) expect(ids[k] == offset + k, "contiguous ids are the rank's range");
  long long data[N], back[N];
  for (int k = 0; k < N; ++k) data[k] = 3LL * k, back[k] = -1;
  long long* mine = malloc(sizeof(long long) * (size_t)(count > 0 ? count : 1));
  expect(hetlb_mpi_plan_scatter(plan, data, MPI_LONG_LONG, mine, MPI_LONG_LONG) == MPI_SUCCESS, "scatter");
  for (int k = 0; k < count; ++k) {
    expect(mine[k] == 3LL * ids[k], "each rank receives its own items");
    mine[k] += 1;
  }
  expect(hetlb_mpi_plan_gather(plan, mine, MPI_LONG_LONG, back, MPI_LONG_LONG) == MPI_SUCCESS, "gather");
  if (rank == 0)
    for (int k = 0; k < N; ++k) expect(back[k] == 3LL * k + 1, "every item back at its place, once");
  int total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  expect(total == N, "counts sum to n");
  double makespan = 0;
  hetlb_mpi_plan_gather_order(plan, NULL, &makespan, NULL);
  double work = 0;
  for (int k = 0; k < N; ++k) work += weights[k];
  const double ideal = work / (100.0 + 100.0 + 200.0 + 400.0); /* speeds in items per second */
  expect(makespan <= 1.02 * ideal, "predicted makespan within 2% of the ideal");
  if (rank == 0) printf("layout %d: predicted %.4f s, ideal %.4f s\n", layout, makespan, ideal);
  free(ids);
  free(mine);
  hetlb_mpi_plan_free(&plan);
}

static void expect_refused(const char* platform, const double* weights, int layout, int error, const char* what) {
  hetlb_mpi_plan plan;
  const int rc = hetlb_mpi_plan_create_weighted(platform, N, rank == 0 ? weights : NULL, layout, 0, MPI_COMM_WORLD, &plan);
  expect(hetlb_mpi_error_of(rc) == error, what);
  expect(plan == HETLB_MPI_PLAN_NULL, "no plan after a refusal");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  hetlb_mpi_set_error_output(0);
  double weights[N];
  for (int k = 0; k < N; ++k) weights[k] = (k >= N / 3 && k < 2 * N / 3) ? 17.0 : 1.0;
  run_layout(argv[1], weights, HETLB_MPI_LAYOUT_CONTIGUOUS);
  run_layout(argv[1], weights, HETLB_MPI_LAYOUT_ANY);
  expect_refused(argv[1], weights, 7, HETLB_MPI_E_ARG, "a bad layout at the root is refused everywhere");
  expect_refused(argv[1], NULL, HETLB_MPI_LAYOUT_ANY, HETLB_MPI_E_BUFFER, "no weights at the root");
  weights[5] = -1;
  expect_refused(argv[1], weights, HETLB_MPI_LAYOUT_CONTIGUOUS, HETLB_MPI_E_PLATFORM, "a negative weight");
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
