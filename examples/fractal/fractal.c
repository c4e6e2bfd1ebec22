/* A fractal image whose rows cost unequally (docs/weighted-items.md), three ways:
 *   --mode weighted       hetlb: the root estimates each row's work from a coarse preview (every 8th
 *                         column), plans with hetlb_mpi_plan_create_weighted, scatters the row
 *                         indices, every rank computes its rows, the plan gathers them in row order;
 *   --mode equal          equal blocks of rows (what MPI_Scatter gives);
 *   --mode master-worker  rank 0 deals rows one at a time to the first free worker.
 * Unlike machines are emulated: after computing a row for real, a rank of speed s waits the row's
 * escape iterations x --unit / s (the real computing, about 5% of it at the default unit, comes on
 * top). The root checks the image against a serial computation.
 *   mpirun -np 4 hetlb-fractal --mode weighted --speeds 1,1,0.5,0.25 --platform speeds.json */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "hetlb/mpi/plan.h"

enum { LIMIT = 256 };
static int rows = 240, cols = 320, rank, size;
static double unit = 2e-7, speeds[64];

/* Escape iterations of each pixel of row y (the image) and their sum (the row's work). */
static long long compute_row(int y, int step, int* out) {
  long long work = 0;
  for (int x = 0; x < cols; x += step) {
    const double cr = -2.0 + 2.6 * x / cols, ci = -1.3 + 2.6 * y / rows;
    double zr = 0, zi = 0;
    int k = 0;
    while (k < LIMIT && zr * zr + zi * zi <= 4.0) {
      const double t = zr * zr - zi * zi + cr;
      zi = 2 * zr * zi + ci, zr = t, ++k;
    }
    if (out) out[x] = k;
    work += 1 + k;
  }
  return work;
}

/* The emulated machine: the rank of speed s waits work x unit / s. */
static void emulate(long long work) {
  const double extra = (double)work * unit / speeds[rank];
  if (extra <= 0) return;
  struct timespec t = {(time_t)extra, (long)((extra - (double)(time_t)extra) * 1e9)};
  nanosleep(&t, NULL);
}

static void compute_rows(const long long* ids, int count, int* image) {
  for (int k = 0; k < count; ++k) emulate(compute_row((int)ids[k], 1, image + (size_t)k * cols));
}

static void master_worker(int* image) {
  const int stop = -1;
  if (rank == 0) {
    int next = 0, busy = 0;
    for (int w = 1; w < size; ++w) {
      const int y = next < rows ? next++ : stop;
      MPI_Send(&y, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
      busy += y != stop;
    }
    int* row = malloc(sizeof(int) * (size_t)(cols + 1));
    while (busy > 0) {
      MPI_Status st;
      MPI_Recv(row, cols + 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
      memcpy(image + (size_t)row[0] * cols, row + 1, sizeof(int) * (size_t)cols);
      const int y = next < rows ? next++ : stop;
      MPI_Send(&y, 1, MPI_INT, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
      busy -= y == stop;
    }
    free(row);
    return;
  }
  int* row = malloc(sizeof(int) * (size_t)(cols + 1));
  for (;;) {
    MPI_Recv(row, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (row[0] == stop) break;
    emulate(compute_row(row[0], 1, row + 1));
    MPI_Send(row, cols + 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
  }
  free(row);
}

static int run_plan(const char* mode, const char* platform, int layout, int* image, MPI_Datatype row_type) {
  long long* all = malloc(sizeof(long long) * (size_t)rows);
  for (int y = 0; y < rows; ++y) all[y] = y;
  int count = rows / size + (rank < rows % size), first = 0;
  long long* ids = NULL;
  int* mine = NULL;
  int failed = 0;
  if (strcmp(mode, "equal") == 0) {
    for (int r = 0; r < rank; ++r) first += rows / size + (r < rows % size);
    ids = all + first;
    mine = malloc(sizeof(int) * (size_t)(count * cols + 1));
    compute_rows(ids, count, mine);
    int counts[64], displs[64];
    for (int r = 0, d = 0; r < size; ++r) counts[r] = rows / size + (r < rows % size), displs[r] = d, d += counts[r];
    MPI_Gatherv(mine, count, row_type, image, counts, displs, row_type, 0, MPI_COMM_WORLD);
  } else {
    double* work = NULL;
    if (rank == 0) { /* the root's estimate: a coarse preview of every row */
      work = malloc(sizeof(double) * (size_t)rows);
      for (int y = 0; y < rows; ++y) work[y] = (double)compute_row(y, 8, NULL);
    }
    MPI_Comm comm; /* hetlb: errors as codes on a communicator of our own */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    hetlb_mpi_plan plan;
    failed = hetlb_mpi_plan_create_weighted(platform, rows, work, layout, 0, comm, &plan) != MPI_SUCCESS;
    if (!failed) {
      hetlb_mpi_plan_share(plan, &count, NULL);
      ids = malloc(sizeof(long long) * (size_t)(count + 1));
      hetlb_mpi_plan_item_ids(plan, ids); /* hetlb: the rows this rank computes */
      mine = malloc(sizeof(int) * (size_t)(count * cols + 1));
      compute_rows(ids, count, mine);
      failed = hetlb_mpi_plan_gather(plan, mine, row_type, image, row_type) != MPI_SUCCESS; /* in row order */
      hetlb_mpi_plan_free(&plan);
      free(ids);
    }
    MPI_Comm_free(&comm);
    free(work);
  }
  free(mine);
  free(all);
  return failed;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = "weighted", *platform = NULL;
  int layout = HETLB_MPI_LAYOUT_ANY, bad = size > 64;
  for (int r = 0; r < 64; ++r) speeds[r] = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--mode") == 0) mode = argv[i + 1];
    else if (strcmp(argv[i], "--platform") == 0) platform = argv[i + 1];
    else if (strcmp(argv[i], "--rows") == 0) rows = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--unit") == 0) unit = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--layout") == 0) layout = strcmp(argv[i + 1], "contiguous") == 0 ? HETLB_MPI_LAYOUT_CONTIGUOUS : HETLB_MPI_LAYOUT_ANY;
    else if (strcmp(argv[i], "--speeds") == 0) {
      char* p = argv[i + 1];
      for (int r = 0; r < size && !bad; ++r) {
        speeds[r] = strtod(p, &p);
        bad = !(speeds[r] > 0);
        if (*p == ',') ++p;
      }
    } else bad = 1;
  }
  bad = bad || rows <= 0 || rows > 100000 || (strcmp(mode, "equal") && strcmp(mode, "master-worker") &&
                                             (strcmp(mode, "weighted") || platform == NULL));
  if (bad) {
    if (rank == 0) fprintf(stderr, "fractal: expected --mode weighted --platform FILE | equal | master-worker, [--speeds s0,s1,...] [--rows N] [--layout any|contiguous]\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Datatype row_type;
  MPI_Type_contiguous(cols, MPI_INT, &row_type);
  MPI_Type_commit(&row_type);
  int* image = rank == 0 ? calloc((size_t)rows * cols, sizeof(int)) : NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  int failed = strcmp(mode, "master-worker") == 0 ? (master_worker(image), 0) : run_plan(mode, platform, layout, image, row_type);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;
  if (rank == 0 && !failed) { /* every row checked against a serial computation */
    int* row = malloc(sizeof(int) * (size_t)cols);
    long long total = 0;
    for (int y = 0; y < rows && !failed; ++y) {
      total += compute_row(y, 1, row);
      failed = memcmp(row, image + (size_t)y * cols, sizeof(int) * (size_t)cols) != 0;
    }
    double speed = 0;
    for (int r = 0; r < size; ++r) speed += speeds[r];
    if (failed) fprintf(stderr, "fractal: the image differs from the serial one\n");
    else printf("fractal: %s, %d rows, %.3f s (ideal %.3f s), image checked\n", mode, rows, seconds,
                (double)total * unit / speed);
    free(row);
  }
  free(image);
  MPI_Type_free(&row_type);
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed ? 1 : 0;
}
