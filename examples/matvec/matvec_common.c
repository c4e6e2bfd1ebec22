#include "matvec_common.h"

#include <mpi.h>

#include <hetlb/mpi/version.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bad input: one line from rank 0 naming the option, its value and what was expected; exit 2 on every
 * rank (after MPI_Finalize). */
static void refuse(int rank, const char* option, const char* value, const char* expected) {
  if (rank == 0) fprintf(stderr, "matvec: %s %s: expected %s\n", option, value, expected);
  MPI_Finalize();
  exit(2);
}

static int whole(const char* text, int rank, const char* option) {
  char* end = NULL;
  const long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 1 || v > 100000000) refuse(rank, option, text, "a whole number in [1, 1e8]");
  return (int)v;
}

struct options parse_options(int argc, char** argv, int rank, int size) {
  struct options o = {480, 256, 4, 2e-3, {0}, NULL};
  if (size > 64) refuse(rank, "ranks:", "more than 64", "at most 64 ranks");
  for (int r = 0; r < 64; ++r) o.speeds[r] = 1;
  for (int i = 1; i < argc; i += 2) {
    const char* option = argv[i];
    if (i + 1 >= argc) refuse(rank, option, "(no value)", "a value after it");
    const char* value = argv[i + 1];
    if (!strcmp(option, "--rows")) o.rows = whole(value, rank, option);
    else if (!strcmp(option, "--cols")) o.cols = whole(value, rank, option);
    else if (!strcmp(option, "--steps")) o.steps = whole(value, rank, option);
    else if (!strcmp(option, "--platform")) o.platform = value;
    else if (!strcmp(option, "--row-cost")) {
      char* end = NULL;
      o.row_cost = strtod(value, &end);
      if (end == value || *end != '\0' || !(o.row_cost >= 0 && o.row_cost <= 10)) refuse(rank, option, value, "seconds in [0, 10]");
    } else if (!strcmp(option, "--speeds")) {
      const char* at = value;
      for (int r = 0; r < size; ++r) {
        char* end = NULL;
        o.speeds[r] = strtod(at, &end);
        if (end == at || !(o.speeds[r] > 0 && o.speeds[r] < 1e6) || (*end != ',' && *end != '\0') ||
            (*end == '\0' && r + 1 < size))
          refuse(rank, option, value, "one positive speed per rank, separated by commas");
        at = *end == ',' ? end + 1 : end;
      }
      if (*at != '\0') refuse(rank, option, value, "one positive speed per rank, separated by commas");
    } else
      refuse(rank, "unknown option", option, "--rows, --cols, --steps, --row-cost, --speeds, --platform or --version");
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

int matvec_print_version_if_asked(int argc, char** argv) { return hetlb_mpi_print_version_if_asked(argc, argv); }
