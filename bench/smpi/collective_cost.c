/* The simulated cost of the program's own collective in bench/smpi/balancers.sh: hetlb-diffuse's
 * fixed-work application gathers 2 doubles per rank (MPI_Allgather) at every iteration, whatever the
 * balancer, and no balancer can save that time. Run under the same smpirun options as the balancers
 * (balancers.sh does it once per rank count): prints "ranks,seconds" on rank 0, the mean of 10
 * all-gathers after a barrier. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine[2] = {(double)rank, 1.0};
  double* all = malloc(sizeof(double) * 2 * (size_t)size);
  enum { kRepetitions = 10 };
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < kRepetitions; ++i) MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  const double seconds = (MPI_Wtime() - start) / kRepetitions;
  if (rank == 0) printf("%d,%.9g\n", size, seconds);
  free(all);
  MPI_Finalize();
  return 0;
}
