/* A fractal image whose rows cost unequally (docs/weighted-items.md), four ways:
 *   --mode weighted       hetlb: the root estimates each row's work from a coarse preview (every 8th
 *                         column), plans with hetlb_mpi_plan_create_weighted, scatters the row
 *                         indices, every rank computes its rows, the plan gathers them in row order;
 *   --mode equal          equal blocks of rows (what MPI_Scatter gives);
 *   --mode master-worker  rank 0 deals rows one at a time to the first free worker;
 *   --mode dynamic        hetlb's diffusion runtime: the rows are its items (dealt round robin, or in
 *                         blocks with --layout contiguous), each costs its escape iterations of the
 *                         previous frame, and the runtime moves rows toward the faster ranks between
 *                         frames; gather_by_id puts each frame in row order at the root.
 * --frames N renders N frames of a zoom (each --zoom times the previous width, toward a point of the
 * boundary), so the rows' costs change from frame to frame: the master-worker loop deals the rows of
 * every frame in turn, the other modes compute frame after frame.
 * Unlike machines are emulated: after computing a row for real, a rank of speed s waits the row's
 * escape iterations x --unit / s (the real computing, about 5% of it at the default unit, comes on
 * top). The root checks every frame against a serial computation.
 *   mpirun -np 4 hetlb-fractal --mode weighted --speeds 1,1,0.5,0.25 --platform speeds.json
 *   mpirun -np 4 hetlb-fractal --mode dynamic --speeds 1,1,0.5,0.25 --frames 30 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "hetlb/mpi/diffusion.h"
#include "hetlb/mpi/plan.h"

enum { LIMIT = 256 };
static int rows = 240, cols = 320, frames = 1, frame = 0 /* the one computed */, rank, size;
static double unit = 2e-7, zoom = 0.88, speeds[64];
static const double target_r = -0.743643887, target_i = 0.131825904; /* the zoom's fixed point */

/* Escape iterations of each pixel of row y of the frame (the image) and their sum (the row's work).
 * Frame 0 spans [-2, 0.6] x [-1.3, 1.3]; each frame shrinks it by `zoom` around the target. */
static long long compute_row(int y, int step, int* out) {
  const double scale = pow(zoom, frame);
  long long work = 0;
  for (int x = 0; x < cols; x += step) {
    const double cr = frame == 0 ? -2.0 + 2.6 * x / cols : target_r + (-2.0 + 2.6 * x / cols - target_r) * scale;
    const double ci = frame == 0 ? -1.3 + 2.6 * y / rows : target_i + (-1.3 + 2.6 * y / rows - target_i) * scale;
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

/* The emulated machine: the rank of speed s waits work x unit / s, less what its previous waits
 * overslept (a loaded machine wakes a sleeper late: without this, every row would cost more). */
static void emulate(long long work) {
  static double overslept = 0;
  const double extra = (double)work * unit / speeds[rank] - overslept;
  overslept = extra > 0 ? 0 : -extra;
  if (extra <= 0) return;
  struct timespec t = {(time_t)extra, (long)((extra - (double)(time_t)extra) * 1e9)};
  const double from = MPI_Wtime();
  nanosleep(&t, NULL);
  overslept = fmax(0, MPI_Wtime() - from - extra);
}

static void compute_rows(const long long* ids, int count, int* image) {
  for (int k = 0; k < count; ++k) emulate(compute_row((int)ids[k], 1, image + (size_t)k * cols));
}

/* The tasks are the rows of every frame in turn (task t: row t % rows of frame t / rows). */
static void master_worker(int* image) {
  const int stop = -1, tasks = frames * rows;
  if (rank == 0) {
    int next = 0, busy = 0;
    for (int w = 1; w < size; ++w) {
      const int y = next < tasks ? next++ : stop;
      MPI_Send(&y, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
      busy += y != stop;
    }
    int* row = malloc(sizeof(int) * (size_t)(cols + 1));
    while (busy > 0) {
      MPI_Status st;
      MPI_Recv(row, cols + 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
      memcpy(image + (size_t)row[0] * cols, row + 1, sizeof(int) * (size_t)cols);
      const int y = next < tasks ? next++ : stop;
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
    frame = row[0] / rows;
    emulate(compute_row(row[0] % rows, 1, row + 1));
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

/* --mode dynamic: the rows are the runtime's items, their payload the row's pixels. Each frame every
 * rank computes the rows it holds, sets each one's cost to its escape iterations (the estimate of the
 * next frame), the root gathers the frame in row order, and iteration_done() moves rows toward the
 * faster ranks. */
static int run_dynamic(int layout, int* image) {
  hetlb_diffusion_options o;
  hetlb_diffusion_options_init(&o); /* balance by time, speeds measured, hybrid balancer */
  o.bulk_synchronous = 1;
  o.end_on_convergence = 0; /* the program renders its frames, then stops */
  hetlb_diffusion* lb = NULL;
  const size_t row_bytes = sizeof(int) * (size_t)cols;
  if (hetlb_diffusion_create(MPI_COMM_WORLD, &o, row_bytes, &lb) != HETLB_DIFFUSION_SUCCESS) {
    if (rank == 0) fprintf(stderr, "fractal: %s\n", hetlb_diffusion_last_error());
    return 1;
  }
  int* blank = calloc((size_t)cols, sizeof(int));
  for (int y = 0; y < rows; ++y) /* round robin, or blocks */
    if ((layout == HETLB_MPI_LAYOUT_CONTIGUOUS ? (int)((long long)y * size / rows) : y % size) == rank)
      hetlb_diffusion_add(lb, (uint64_t)y, blank);
  hetlb_diffusion_set_balancer(lb, NULL, frames); /* the number of frames: what a global step can gain */
  hetlb_diffusion_start(lb);
  double* costs = malloc(sizeof(double) * (size_t)rows);
  int failed = 0;
  for (int f = 0; f < frames && !failed; ++f) {
    const size_t n = hetlb_diffusion_size(lb);
    frame = f;
    for (size_t i = 0; i < n; ++i) {
      const long long work = compute_row((int)hetlb_diffusion_id(lb, i), 1, hetlb_diffusion_item(lb, i));
      emulate(work);
      costs[i] = (double)work;
    }
    hetlb_diffusion_set_costs(lb, costs, n); /* this frame's work: the next frame's estimate */
    failed = hetlb_diffusion_gather_by_id(lb, NULL, row_bytes, rank == 0 ? image + (size_t)f * rows * cols : NULL,
                                          NULL, 0) != HETLB_DIFFUSION_SUCCESS;
    int running = 1;
    if (!failed) failed = hetlb_diffusion_iteration_done(lb, &running) != HETLB_DIFFUSION_SUCCESS;
  }
  if (!failed) failed = hetlb_diffusion_stop(lb) != HETLB_DIFFUSION_SUCCESS;
  if (failed && rank == 0) fprintf(stderr, "fractal: %s\n", hetlb_diffusion_last_error());
  hetlb_diffusion_free(&lb);
  free(costs);
  free(blank);
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
    else if (strcmp(argv[i], "--frames") == 0) frames = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--zoom") == 0) zoom = atof(argv[i + 1]);
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
  bad = bad || rows <= 0 || rows > 100000 || frames <= 0 || (long long)frames * rows > 1000000 || !(zoom > 0) ||
        (strcmp(mode, "equal") && strcmp(mode, "master-worker") && strcmp(mode, "dynamic") &&
         (strcmp(mode, "weighted") || platform == NULL));
  if (bad) {
    if (rank == 0) fprintf(stderr, "fractal: expected --mode weighted --platform FILE | equal | master-worker | dynamic, [--speeds s0,s1,...] [--rows N] [--layout any|contiguous] [--frames N] [--zoom FACTOR]\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Datatype row_type;
  MPI_Type_contiguous(cols, MPI_INT, &row_type);
  MPI_Type_commit(&row_type);
  const size_t frame_size = (size_t)rows * cols;
  int* image = rank == 0 ? calloc(frame_size * frames, sizeof(int)) : NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  int failed = 0;
  if (strcmp(mode, "master-worker") == 0) master_worker(image);
  else if (strcmp(mode, "dynamic") == 0) failed = run_dynamic(layout, image);
  else
    for (frame = 0; frame < frames && !failed; ++frame)
      failed = run_plan(mode, platform, layout, rank == 0 ? image + frame * frame_size : NULL, row_type);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - start;
  if (rank == 0 && !failed) { /* every row of every frame checked against a serial computation */
    int* row = malloc(sizeof(int) * (size_t)cols);
    long long total = 0, before = 0;
    double change = 1; /* the largest change of a row's cost from one frame to the next */
    for (int f = 0; f < frames && !failed; ++f)
      for (int y = 0; y < rows && !failed; ++y) {
        frame = f;
        const long long work = compute_row(y, 1, row);
        if (f > 0) {
          frame = f - 1;
          before = compute_row(y, 1, NULL);
          change = fmax(change, fmax((double)work / (double)before, (double)before / (double)work));
        }
        total += work;
        failed = memcmp(row, image + f * frame_size + (size_t)y * cols, sizeof(int) * (size_t)cols) != 0;
      }
    double speed = 0;
    for (int r = 0; r < size; ++r) speed += speeds[r];
    const double ideal = (double)total * unit / speed;
    if (failed) fprintf(stderr, "fractal: the image differs from the serial one\n");
    else if (frames == 1) printf("fractal: %s, %d rows, %.3f s (ideal %.3f s), image checked\n", mode, rows, seconds, ideal);
    else printf("fractal: %s, %d frames of %d rows (a row's cost changes up to %.1fx between frames), %.3f s "
                "(ideal %.3f s, %.2fx), every frame checked\n", mode, frames, rows, change, seconds, ideal, seconds / ideal);
    free(row);
  }
  free(image);
  MPI_Type_free(&row_type);
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed ? 1 : 0;
}
