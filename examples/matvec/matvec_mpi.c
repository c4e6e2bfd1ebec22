/* y = A x for a stream of matrices, rows scattered with MPI_Scatter (the program before hetlb).
 * Every step the root builds a new R x C matrix, scatters R / p rows to each rank, broadcasts x, each
 * rank multiplies its rows, MPI_Gather brings y back and the root checks it.
 *   mpirun -np 4 hetlb-matvec-mpi [--rows R] [--cols C] [--steps S] [--speeds 1,1,2,4] [--row-cost 2e-3]
 * --speeds emulates unlike machines: a rank of speed s also waits row_cost / s per row (nanosleep). */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "matvec_common.h"

int main(int argc, char** argv) {
  if (matvec_print_version_if_asked(argc, argv)) return 0;
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  struct options o = parse_options(argc, argv, rank, p);
  if (o.rows % p != 0) {
    if (rank == 0) fprintf(stderr, "matvec-mpi: --rows %d: expected a multiple of the %d ranks (MPI_Scatter)\n", o.rows, p);
    MPI_Finalize();
    return 2;
  }
  const int mine = o.rows / p;
  double* a = rank == 0 ? malloc((size_t)o.rows * o.cols * sizeof *a) : NULL;
  double* y = rank == 0 ? malloc((size_t)o.rows * sizeof *y) : NULL;
  double* x = malloc((size_t)o.cols * sizeof *x);
  double* rows = malloc((size_t)mine * o.cols * sizeof *rows);
  double* part = malloc((size_t)mine * sizeof *part);
  int bad = 0;
  double worst = 0;
  for (int step = 0; step < o.steps; ++step) {
    if (rank == 0) make_matrix(a, x, o.rows, o.cols, step);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    MPI_Bcast(x, o.cols, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatter(a, mine * o.cols, MPI_DOUBLE, rows, mine * o.cols, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    multiply(rows, x, part, mine, o.cols, o.row_cost / o.speeds[rank]);
    MPI_Gather(part, mine, MPI_DOUBLE, y, mine, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    const double makespan = MPI_Wtime() - t0;
    if (rank == 0) bad |= !check_product(a, x, y, o.rows, o.cols);
    if (step > 0 && makespan > worst) worst = makespan;
    if (rank == 0) printf("step %d: makespan %.4f s\n", step, makespan);
  }
  if (rank == 0) printf("matvec-mpi: %d steps, %s, slowest step after the first %.4f s\n", o.steps, bad ? "WRONG" : "y checked", worst);
  free(a), free(y), free(x), free(rows), free(part);
  MPI_Finalize();
  return bad;
}
