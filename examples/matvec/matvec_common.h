/* What both versions of the matrix-vector example share: options, the matrices, the product (with the
 * emulated speed's wait) and the root's check. */
#ifndef MATVEC_COMMON_H
#define MATVEC_COMMON_H

struct options {
  int rows, cols, steps;
  double row_cost;   /* seconds waited per row at speed 1 (emulation) */
  double speeds[64]; /* rank r waits row_cost / speeds[r] per row */
  const char* platform;
};

struct options parse_options(int argc, char** argv, int rank, int size);
/* With --version among the arguments: prints hetlb's build identity (hetlb_mpi_print_version_if_asked,
 * hetlb/mpi/version.h) and returns 1 (main then returns 0, before MPI starts); 0 otherwise. */
int matvec_print_version_if_asked(int argc, char** argv);
void make_matrix(double* a, double* x, int rows, int cols, int step);
/* part[i] = rows[i] . x for count rows, then waits count x wait_per_row seconds. */
void multiply(const double* rows, const double* x, double* part, int count, int cols, double wait_per_row);
/* Whether y = A x (exactly: the same sums in the same order). */
int check_product(const double* a, const double* x, const double* y, int rows, int cols);

#endif
