/* hetlb_mpi_plan_create_measured, hetlb_mpi_plan_check and binding by host name, under mpirun with
 * ranks emulated at unlike speeds by waiting (nanosleep: a rank of speed s spends cost / s per item,
 * without spinning). Every iteration scatters n numbers, each rank "computes" (doubles) its share and
 * waits, the plan gathers them back and the root checks every item; the outcome checked is the plan's
 * status and counts, not timings.
 *   --case measured --speeds 1,1,2,4   plan from equal guesses, REPLANNED after iteration 1, then
 *                                      ON_TRACK with counts near n x speed / sum
 *   --case stale --platform F --speeds 4,1,1,2   a file in another order: STALE, then REPLANNED, ON_TRACK
 *   --case host --platform F --hosts B,A,A,C --expect 2e-3,1e-3,1e-3,4e-3   bound by host name: each
 *                                      rank's predicted cost per item is its host's
 *   --case binding --platform F [--hosts ...] --binding 0|1|2|differ   a refused binding or file order
 *   --case cost --seconds S            the last rank's seconds per item S (<= 0: refused)
 *   --case check-seconds --seconds S   the last rank checks with S seconds (< 0: refused)
 *   --case check-margin --margin M     rank 0 checks with margin M (differing or <= 0: refused)
 * Bad input: exit 2 when every rank returned the same error code, 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "hetlb/mpi/plan.h"

#define N_ITEMS 240
/* Seconds per item at speed 1: iterations of about 0.3 to 0.6 s, and the fastest rank's wait at least
 * 75 ms, so that a scheduler's late wake-up on a loaded machine (10 ms) moves no count by 10%. */
#define COST 1e-2
#define MARGIN 0.4 /* far from the departures a wrong plan gives here (75% and more), and from timer noise */

static int rank, size;

static void parse_list(const char* text, double* out, int count) {
  for (int i = 0; i < count; ++i) {
    out[i] = strtod(text, (char**)&text);
    if (*text == ',') ++text;
  }
}

static void wait_seconds(double s) {
  struct timespec t;
  t.tv_sec = (time_t)s;
  t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
  while (nanosleep(&t, &t) != 0) {
  }
}

/* One iteration: scatter, compute (wait), gather, check every item at the root. Returns the seconds
 * this rank spent computing; *bad is set on a wrong item. */
static double iterate(hetlb_mpi_plan plan, double speed, int* bad) {
  int count = 0;
  long long offset = 0;
  hetlb_mpi_plan_share(plan, &count, &offset);
  static double data[N_ITEMS];
  double* mine = malloc(((size_t)count + 1) * sizeof *mine);
  for (int i = 0; rank == 0 && i < N_ITEMS; ++i) data[i] = (double)i;
  if (hetlb_mpi_plan_scatter(plan, data, MPI_DOUBLE, mine, MPI_DOUBLE) != MPI_SUCCESS) *bad = 1;
  const double t0 = MPI_Wtime();
  for (int j = 0; j < count; ++j) {
    if (mine[j] != (double)(offset + j)) *bad = 1;
    mine[j] *= 2;
  }
  wait_seconds(count * COST / speed);
  const double seconds = MPI_Wtime() - t0;
  if (hetlb_mpi_plan_gather(plan, mine, MPI_DOUBLE, data, MPI_DOUBLE) != MPI_SUCCESS) *bad = 1;
  for (int i = 0; rank == 0 && i < N_ITEMS; ++i)
    if (data[i] != 2.0 * i) *bad = 1;
  free(mine);
  return seconds;
}

static const char* status_name(int s) {
  return s == HETLB_MPI_PLAN_ON_TRACK ? "on track" : s == HETLB_MPI_PLAN_STALE ? "stale" : "replanned";
}

/* Iterations with checks; expected statuses in order. */
static int run_checks(hetlb_mpi_plan plan, double speed, const double* speeds, const int* expected,
                      const int* replan, int steps) {
  int bad = 0;
  for (int step = 0; step < steps; ++step) {
    const double seconds = iterate(plan, speed, &bad);
    int status = -1, worst = -1;
    double departure = 0;
    if (hetlb_mpi_plan_check(plan, seconds, MARGIN, replan[step], &status, &departure) != MPI_SUCCESS) return 1;
    hetlb_mpi_plan_status(plan, NULL, NULL, &worst);
    if (rank == 0)
      printf("iteration %d: %s (largest departure %.0f%% on rank %d)\n", step + 1, status_name(status),
             100 * departure, worst);
    if (status != expected[step]) {
      if (rank == 0) fprintf(stderr, "measured_plan_check: iteration %d: expected %s\n", step + 1, status_name(expected[step]));
      bad = 1;
    }
  }
  /* After the re-plan the counts follow the speeds: within 20% of n x speed / sum. */
  int* counts = malloc((size_t)size * sizeof *counts);
  hetlb_mpi_plan_counts(plan, counts, NULL, NULL);
  double sum = 0;
  for (int r = 0; r < size; ++r) sum += speeds[r];
  for (int r = 0; r < size; ++r) {
    const double ideal = N_ITEMS * speeds[r] / sum;
    if (rank == 0) printf("rank %d: %d items (speed %g, proportional share %.1f)\n", r, counts[r], speeds[r], ideal);
    if (fabs(counts[r] - ideal) > 0.2 * ideal) bad = 1;
  }
  free(counts);
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const char *which = "measured", *platform = NULL, *hosts = NULL, *binding_arg = "1";
  double speeds[64], expect[64], seconds_arg = 1e-3, margin_arg = MARGIN;
  for (int r = 0; r < 64; ++r) speeds[r] = 1, expect[r] = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--case")) which = argv[i + 1];
    else if (!strcmp(argv[i], "--platform")) platform = argv[i + 1];
    else if (!strcmp(argv[i], "--speeds")) parse_list(argv[i + 1], speeds, size);
    else if (!strcmp(argv[i], "--expect")) parse_list(argv[i + 1], expect, size);
    else if (!strcmp(argv[i], "--hosts")) hosts = argv[i + 1];
    else if (!strcmp(argv[i], "--binding")) binding_arg = argv[i + 1];
    else if (!strcmp(argv[i], "--seconds")) seconds_arg = strtod(argv[i + 1], NULL);
    else if (!strcmp(argv[i], "--margin")) margin_arg = strtod(argv[i + 1], NULL);
  }
  if (hosts) { /* this rank's host: the rank-th name of the list */
    char name[256] = "";
    const char* at = hosts;
    for (int r = 0; r < rank && at; ++r) at = strchr(at, ','), at = at ? at + 1 : NULL;
    if (at) {
      size_t len = strcspn(at, ",");
      memcpy(name, at, len < 255 ? len : 255);
    }
    setenv("HETLB_MPI_HOST", name, 1);
  }
  const double speed = speeds[rank];
  hetlb_mpi_plan plan = HETLB_MPI_PLAN_NULL;
  int rc = 1;

  if (!strcmp(which, "measured")) {
    /* Nothing known yet: the same guess everywhere; 8 bytes per item, links timed by the root. */
    if (hetlb_mpi_plan_create_measured(COST, 8, N_ITEMS, 0, MPI_COMM_WORLD, &plan) == MPI_SUCCESS) {
      const int expected[3] = {HETLB_MPI_PLAN_REPLANNED, HETLB_MPI_PLAN_ON_TRACK, HETLB_MPI_PLAN_ON_TRACK};
      const int replan[3] = {1, 1, 0};
      rc = run_checks(plan, speed, speeds, expected, replan, 3);
    }
  } else if (!strcmp(which, "stale")) {
    if (hetlb_mpi_plan_create(platform, N_ITEMS, 0, MPI_COMM_WORLD, &plan) == MPI_SUCCESS) {
      const int expected[3] = {HETLB_MPI_PLAN_STALE, HETLB_MPI_PLAN_REPLANNED, HETLB_MPI_PLAN_ON_TRACK};
      const int replan[3] = {0, 1, 0};
      rc = run_checks(plan, speed, speeds, expected, replan, 3);
    }
  } else if (!strcmp(which, "host")) {
    if (hetlb_mpi_plan_create_bound(platform, N_ITEMS, 0, HETLB_MPI_BIND_HOST, MPI_COMM_WORLD, &plan) == MPI_SUCCESS) {
      int count = 0, bad = 0, any = 0;
      double predicted = 0;
      hetlb_mpi_plan_share(plan, &count, NULL);
      hetlb_mpi_plan_predicted(plan, &predicted);
      const double per_item = count > 0 ? predicted / count : expect[rank];
      printf("rank %d on %s: %d items, %g s per item (expected %g)\n", rank, getenv("HETLB_MPI_HOST"), count,
             per_item, expect[rank]);
      bad = fabs(per_item - expect[rank]) > 1e-9 * expect[rank] + 1e-15;
      iterate(plan, speed, &bad);
      MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      rc = any;
    }
  } else { /* bad input: the same code on every rank (exit 2), one line from the reporter */
    int code = MPI_SUCCESS;
    const int last = rank == size - 1;
    if (!strcmp(which, "binding"))  /* --binding N on every rank, or "differ": 1 on the last rank only */
      code = hetlb_mpi_plan_create_bound(platform, N_ITEMS, 0, strcmp(binding_arg, "differ") ? atoi(binding_arg) : last,
                                         MPI_COMM_WORLD, &plan);
    else if (!strcmp(which, "cost"))  /* the last rank's seconds per item is --seconds */
      code = hetlb_mpi_plan_create_measured(last ? seconds_arg : COST, 8, N_ITEMS, 0, MPI_COMM_WORLD, &plan);
    else if (!strcmp(which, "check-seconds") || !strcmp(which, "check-margin")) {
      code = hetlb_mpi_plan_create_measured(COST, 0, N_ITEMS, 0, MPI_COMM_WORLD, &plan);
      const int seconds_case = !strcmp(which, "check-seconds");
      if (code == MPI_SUCCESS)  /* the last rank passes --seconds, or rank 0 passes --margin */
        code = hetlb_mpi_plan_check(plan, seconds_case && last ? seconds_arg : 0.1,
                                    !seconds_case && rank == 0 ? margin_arg : MARGIN, 0, NULL, NULL);
    }
    int codes[2] = {code, -code}, extremes[2];
    MPI_Allreduce(codes, extremes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rc = code != MPI_SUCCESS && extremes[0] == -extremes[1] ? 2 : 1;
  }
  if (plan != HETLB_MPI_PLAN_NULL) hetlb_mpi_plan_free(&plan);
  MPI_Finalize();
  return rc;
}
