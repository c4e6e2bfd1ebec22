// C interface of the diffusion runtime (hetlb/mpi/diffusion.h): codes instead of exceptions.
#include <cstdlib>
#include <cstring>
#include <string>

#include "hetlb/mpi/diffusion.h"
#include "hetlb/mpi/diffusion.hpp"

struct hetlb_diffusion {
  hetlb::mpi::Diffusion lb;
};

namespace {
thread_local std::string last_error;

template <typename F>
int guarded(F&& f) {
  try {
    f();
    last_error.clear();
    return HETLB_DIFFUSION_SUCCESS;
  } catch (const hetlb::mpi::Error& e) {
    last_error = e.what();
    return e.status();
  } catch (const std::exception& e) {
    last_error = e.what();
    return HETLB_DIFFUSION_ERR_ARG;
  }
}
}  // namespace

extern "C" {

void hetlb_diffusion_options_init(hetlb_diffusion_options* o) {
  const hetlb::mpi::DiffusionOptions d;
  *o = hetlb_diffusion_options{nullptr, nullptr, d.k, 0, 0, d.min_balancing_period, d.min_computing_period,
                               d.iterations, d.tolerance, d.time_limit, 0, 0};
}

int hetlb_diffusion_create(MPI_Comm comm, const hetlb_diffusion_options* options, size_t item_bytes,
                           hetlb_diffusion** out) {
  *out = nullptr;
  return guarded([&] {
    hetlb_diffusion_options c;
    hetlb_diffusion_options_init(&c);
    if (options) c = *options;
    hetlb::mpi::DiffusionOptions o;
    if (c.topology) o.topology = c.topology;
    if (c.strategy) o.strategy = c.strategy;
    o.k = c.k;
    o.virtual_load = c.virtual_load != 0;
    o.integer = c.integer != 0;
    o.min_balancing_period = c.min_balancing_period;
    o.min_computing_period = c.min_computing_period;
    o.iterations = c.iterations;
    o.tolerance = c.tolerance;
    o.time_limit = c.time_limit;
    o.progress_thread = c.progress_thread != 0;
    o.use_comm_graph = c.use_comm_graph != 0;
    *out = new hetlb_diffusion{hetlb::mpi::Diffusion(comm, o, item_bytes)};
  });
}

int hetlb_diffusion_add(hetlb_diffusion* lb, uint64_t id, const void* payload) {
  return guarded([&] { lb->lb.add(id, payload); });
}
int hetlb_diffusion_start(hetlb_diffusion* lb) {
  return guarded([&] { lb->lb.start(); });
}
size_t hetlb_diffusion_size(const hetlb_diffusion* lb) { return lb->lb.size(); }
uint64_t hetlb_diffusion_id(const hetlb_diffusion* lb, size_t i) { return lb->lb.id(i); }
void* hetlb_diffusion_item(hetlb_diffusion* lb, size_t i) { return lb->lb.item(i); }
int hetlb_diffusion_iteration_done(hetlb_diffusion* lb, int* running) {
  return guarded([&] { *running = lb->lb.iteration_done() ? 1 : 0; });
}
int hetlb_diffusion_progress(hetlb_diffusion* lb) {
  return guarded([&] { lb->lb.progress(); });
}
int hetlb_diffusion_stop(hetlb_diffusion* lb) {
  return guarded([&] { lb->lb.stop(); });
}
int hetlb_diffusion_threaded(const hetlb_diffusion* lb) { return lb->lb.threaded() ? 1 : 0; }
int hetlb_diffusion_metrics_json(hetlb_diffusion* lb, char** json) {
  *json = nullptr;
  return guarded([&] {
    const std::string s = lb->lb.metrics_json();
    int rank = 0;
    MPI_Comm_rank(lb->lb.graph(), &rank);
    if (rank != 0) return;
    *json = static_cast<char*>(std::malloc(s.size() + 1));
    std::memcpy(*json, s.c_str(), s.size() + 1);
  });
}
void hetlb_diffusion_free(hetlb_diffusion* lb) { delete lb; }
const char* hetlb_diffusion_last_error(void) { return last_error.c_str(); }
}
