/* Plan once, scatter n numbers from the root, double them, gather them back (C, pkg-config). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include <hetlb/mpi/plan.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* hetlb's errors come back as codes */
  int rank, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const long long n = 100000;
  const int root = 0;

  hetlb_mpi_plan plan; /* only the root reads the platform file; processor k runs on rank k */
  int rc = hetlb_mpi_plan_create(rank == root ? argv[1] : NULL, rank == root ? n : 0, root, MPI_COMM_WORLD, &plan);
  if (rc != MPI_SUCCESS) { /* the same code on every rank; the root printed why */
    MPI_Finalize();
    return 1;
  }
  int count;
  long long offset;
  hetlb_mpi_plan_share(plan, &count, &offset);

  double* data = rank == root ? malloc(n * sizeof *data) : NULL;
  double* mine = malloc((count + 1) * sizeof *mine);
  for (long long i = 0; rank == root && i < n; ++i) data[i] = (double)i;
  hetlb_mpi_plan_scatter(plan, data, MPI_DOUBLE, mine, MPI_DOUBLE);
  for (int j = 0; j < count; ++j) {
    bad |= mine[j] != (double)(offset + j); /* rank's items: [offset, offset + count) */
    mine[j] *= 2;
  }
  hetlb_mpi_plan_gather(plan, mine, MPI_DOUBLE, data, MPI_DOUBLE);
  for (long long i = 0; rank == root && i < n; ++i) bad |= data[i] != 2.0 * (double)i;

  int any_bad;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == root) printf("C: %lld items scattered and gathered back, %s\n", n, any_bad ? "WRONG" : "all checked");
  hetlb_mpi_plan_free(&plan);
  free(data);
  free(mine);
  MPI_Finalize();
  return any_bad;
}
