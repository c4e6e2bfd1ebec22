/* The hybrid balancer through the C interface (hetlb_diffusion_set_balancer, docs/runtime.md, "Global
 * steps"), 4 ranks, given speeds 1, 1, 0.5, 0.25 (rank r's computing is slowed to items x 50 us / s_r),
 * bulk-synchronous, all 220 items on the slowest rank at the start. Checked: a bad balancer is refused
 * on every rank, set_balancer after start too; start() keeps the items where they are (no start step by
 * default); after the first call every rank holds exactly its share (80, 80, 40, 20: one global step, the
 * exact planner's integer split) and every id is held once after every call; the run converges; the
 * metrics report the step (its call, 220 - 20 items moved). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "hetlb/mpi/diffusion.h"

#define ITEMS 220

static void check(int ok, int rank, const char* what) {
  if (ok) return;
  fprintf(stderr, "c-global-check: rank %d: %s (%s)\n", rank, what, hetlb_diffusion_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check(size == 4, rank, "expected 4 ranks");
  const double speeds[4] = {1, 1, 0.5, 0.25};
  const uint64_t shares[4] = {80, 80, 40, 20};
  hetlb_diffusion_options o;
  hetlb_diffusion_options_init(&o);
  o.bulk_synchronous = 1;
  o.speeds = speeds;
  o.speed_count = 4;
  o.iterations = 5;
  o.tolerance = 0.05;
  o.time_limit = 20;
  hetlb_diffusion* lb = NULL;
  check(hetlb_diffusion_create(MPI_COMM_WORLD, &o, sizeof(uint64_t), &lb) == HETLB_DIFFUSION_SUCCESS, rank, "create");
  check(hetlb_diffusion_set_balancer(lb, "bogus", 0) == HETLB_DIFFUSION_ERR_ARG, rank, "balancer bogus accepted");
  check(strstr(hetlb_diffusion_last_error(), "bogus") != NULL, rank, "the refusal does not name the value");
  check(hetlb_diffusion_set_balancer(lb, "hybrid", 40) == HETLB_DIFFUSION_SUCCESS, rank, "set_balancer hybrid");
  if (rank == 3)
    for (uint64_t id = 0; id < ITEMS; ++id) check(hetlb_diffusion_add(lb, id, &id) == 0, rank, "add");
  check(hetlb_diffusion_start(lb) == HETLB_DIFFUSION_SUCCESS, rank, "start");
  check(hetlb_diffusion_set_balancer(lb, "global", 0) == HETLB_DIFFUSION_ERR_STATE, rank, "set_balancer after start");
  check(hetlb_diffusion_size(lb) == (rank == 3 ? ITEMS : 0), rank, "items moved by start()");
  int running = 1;
  long calls = 0;
  while (running) {
    const double seconds = 50e-6 * (double)hetlb_diffusion_size(lb) / speeds[rank];
    const struct timespec pause = {0, (long)(seconds * 1e9)};
    nanosleep(&pause, NULL);
    check(hetlb_diffusion_iteration_done_timed(lb, seconds, &running) == 0, rank, "iteration_done");
    ++calls;
    uint64_t mine[3] = {hetlb_diffusion_size(lb), 0, 0}, all[3];
    for (size_t i = 0; i < hetlb_diffusion_size(lb); ++i) {
      const uint64_t id = hetlb_diffusion_id(lb, i);
      check(*(const uint64_t*)hetlb_diffusion_item(lb, i) == id, rank, "payload differs from its id");
      mine[1] += id;
      mine[2] += id * id;
    }
    MPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    check(all[0] == ITEMS && all[1] == ITEMS * (ITEMS - 1) / 2 &&
              all[2] == (uint64_t)(ITEMS - 1) * ITEMS * (2 * ITEMS - 1) / 6,
          rank, "an item held twice or by no rank after iteration_done");
    check(hetlb_diffusion_size(lb) == shares[rank], rank, "not at its share after the first call");
  }
  char* json = NULL;
  check(hetlb_diffusion_metrics_json(lb, &json) == 0, rank, "metrics");
  if (rank == 0) {
    printf("c-global-check: ended after %ld calls\n%s\n", calls, json);
    check(strstr(json, "\"converged\": true") != NULL, rank, "not converged");
    check(strstr(json, "\"balancer\": \"hybrid\"") != NULL, rank, "balancer not reported");
    check(strstr(json, "\"call\": 1,") != NULL, rank, "no global step reported at call 1");
    check(strstr(json, "\"items\": 200") != NULL, rank, "the step's 200 items not reported");
    free(json);
  }
  hetlb_diffusion_free(&lb);
  MPI_Finalize();
  return 0;
}
