/* y = A x for a stream of matrices, ported to hetlb: the rows go out in planned shares (faster ranks
 * get more) instead of R / p each. Changes from matvec_mpi.c are marked "hetlb:".
 *   mpirun -np 4 hetlb-matvec [--platform F] [--rows R] [--cols C] [--steps S] [--speeds 1,1,2,4]
 * Without --platform the plan starts from an even guess and is made again from the first step's
 * measured times (hetlb_mpi_plan_check); with one it follows the file, and is checked the same way. */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include <hetlb/mpi/plan.h> /* hetlb: */

#include "matvec_common.h"

int main(int argc, char** argv) {
  if (matvec_print_version_if_asked(argc, argv)) return 0;
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  struct options o = parse_options(argc, argv, rank, p);

  /* hetlb: errors as return codes on a communicator of our own; MPI_COMM_WORLD keeps its handler. */
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  hetlb_mpi_plan plan;
  int rc = o.platform ? hetlb_mpi_plan_create(o.platform, o.rows, 0, comm, &plan)
                      : hetlb_mpi_plan_create_measured(1.0, o.cols * (int)sizeof(double), o.rows, 0, comm, &plan);
  if (rc != MPI_SUCCESS) { /* the same code on every rank; the root printed why */
    MPI_Finalize();
    return 2;
  }
  MPI_Datatype row; /* hetlb: one item = one row */
  MPI_Type_contiguous(o.cols, MPI_DOUBLE, &row);
  MPI_Type_commit(&row);

  int mine;
  hetlb_mpi_plan_share(plan, &mine, NULL); /* hetlb: this rank's row count */
  double* a = rank == 0 ? malloc((size_t)o.rows * o.cols * sizeof *a) : NULL;
  double* y = rank == 0 ? malloc((size_t)o.rows * sizeof *y) : NULL;
  double* x = malloc((size_t)o.cols * sizeof *x);
  double* rows = malloc(((size_t)o.rows * o.cols + 1) * sizeof *rows); /* any share fits */
  double* part = malloc(((size_t)o.rows + 1) * sizeof *part);
  int bad = 0;
  double worst = 0;
  for (int step = 0; step < o.steps; ++step) {
    if (rank == 0) make_matrix(a, x, o.rows, o.cols, step);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    MPI_Bcast(x, o.cols, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    bad |= hetlb_mpi_plan_scatter(plan, a, row, rows, row) != MPI_SUCCESS;
    const double c0 = MPI_Wtime();
    multiply(rows, x, part, mine, o.cols, o.row_cost / o.speeds[rank]);
    const double computing = MPI_Wtime() - c0;
    bad |= hetlb_mpi_plan_gather(plan, part, MPI_DOUBLE, y, MPI_DOUBLE) != MPI_SUCCESS;
    const double makespan = MPI_Wtime() - t0;
    if (rank == 0) bad |= !check_product(a, x, y, o.rows, o.cols);
    if (step > 0 && makespan > worst) worst = makespan;

    int status = HETLB_MPI_PLAN_ON_TRACK; /* hetlb: compare with the prediction; plan again when 25% off */
    double departure = 0;
    bad |= hetlb_mpi_plan_check(plan, computing, 0.25, 1, &status, &departure) != MPI_SUCCESS;
    if (status == HETLB_MPI_PLAN_REPLANNED) hetlb_mpi_plan_share(plan, &mine, NULL);
    if (rank == 0)
      printf("step %d: makespan %.4f s, plan %s (largest departure %.0f%%)\n", step, makespan,
             status == HETLB_MPI_PLAN_REPLANNED ? "made again" : "on track", 100 * departure);
  }
  int any_bad;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("matvec-hetlb: %d steps, %s, slowest step after the first %.4f s\n", o.steps, any_bad ? "WRONG" : "y checked", worst);
  hetlb_mpi_plan_free(&plan);
  MPI_Type_free(&row);
  MPI_Comm_free(&comm);
  free(a), free(y), free(x), free(rows), free(part);
  MPI_Finalize();
  return any_bad;
}
