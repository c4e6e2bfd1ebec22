#include "matvec_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct options parse_options(int argc, char** argv, int rank, int size) {
  struct options o = {480, 256, 4, 2e-3, {0}, NULL};
  for (int r = 0; r < 64; ++r) o.speeds[r] = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--rows")) o.rows = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--cols")) o.cols = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--steps")) o.steps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--row-cost")) o.row_cost = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--platform")) o.platform = argv[i + 1];
    else if (!strcmp(argv[i], "--speeds")) {
      const char* at = argv[i + 1];
      for (int r = 0; r < size && r < 64 && *at; ++r) {
        o.speeds[r] = strtod(at, (char**)&at);
        if (*at == ',') ++at;
      }
    }
  }
  if (o.rows < 1 || o.cols < 1 || o.steps < 1 || o.row_cost < 0 || size > 64) {
    if (rank == 0) fprintf(stderr, "matvec: expected --rows, --cols, --steps >= 1, --row-cost >= 0, at most 64 ranks\n");
    exit(2);
  }
  for (int r = 0; r < size; ++r)
    if (!(o.speeds[r] > 0)) {
      if (rank == 0) fprintf(stderr, "matvec: --speeds: rank %d's speed %g, expected > 0\n", r, o.speeds[r]);
      exit(2);
    }
  return o;
}

void make_matrix(double* a, double* x, int rows, int cols, int step) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) a[(size_t)i * cols + j] = (double)((i * 7 + j * 3 + step) % 11) - 5.0;
  for (int j = 0; j < cols; ++j) x[j] = (double)((j + step) % 5) * 0.5;
}

void multiply(const double* rows, const double* x, double* part, int count, int cols, double wait_per_row) {
  for (int i = 0; i < count; ++i) {
    double sum = 0;
    for (int j = 0; j < cols; ++j) sum += rows[(size_t)i * cols + j] * x[j];
    part[i] = sum;
  }
  const double wait = count * wait_per_row;
  if (wait <= 0) return;
  struct timespec t = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
  while (nanosleep(&t, &t) != 0) {
  }
}

int check_product(const double* a, const double* x, const double* y, int rows, int cols) {
  double* expected = malloc(sizeof *expected);
  int ok = 1;
  for (int i = 0; i < rows; ++i) {
    multiply(a + (size_t)i * cols, x, expected, 1, cols, 0);
    ok &= expected[0] == y[i];
  }
  free(expected);
  return ok;
}
