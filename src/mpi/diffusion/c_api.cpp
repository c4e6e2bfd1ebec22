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
thread_local int last_status = HETLB_DIFFUSION_SUCCESS;

int failed(int status, const std::string& reason) {
  last_error = reason;
  last_status = status;
  return status;
}

template <typename F>
int guarded(F&& f) {
  try {
    f();
    last_error.clear();
    last_status = HETLB_DIFFUSION_SUCCESS;
    return HETLB_DIFFUSION_SUCCESS;
  } catch (const hetlb::mpi::Error& e) {
    return failed(e.status(), e.what());
  } catch (const std::exception& e) {
    return failed(HETLB_DIFFUSION_ERR_ARG, e.what());
  }
}

hetlb::mpi::DiffusionOptions to_cpp(const hetlb_diffusion_options& c) {
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
  o.bulk_synchronous = c.bulk_synchronous != 0;
  o.sync_interval = c.sync_interval;
  o.wait_for_load = c.wait_for_load != 0;
  o.end_on_convergence = c.end_on_convergence != 0;
  if (c.balance) o.balance = c.balance;
  if (c.speed_count < 0)
    throw hetlb::mpi::Error(HETLB_DIFFUSION_ERR_ARG, "speed_count < 0: expected a count of speeds (0: measured)");
  if (c.speed_count > 0 && !c.speeds)
    throw hetlb::mpi::Error(HETLB_DIFFUSION_ERR_ARG, "speeds = NULL with speed_count > 0: expected speed_count values");
  if (c.speed_count > 0) o.speeds.assign(c.speeds, c.speeds + c.speed_count);
  o.speed_time_constant = c.speed_time_constant;
  o.speed_hysteresis = c.speed_hysteresis;
  if (c.speeds_file) o.speeds_file = c.speeds_file;
  return o;
}

bool usable(const hetlb_diffusion* lb) {
  if (lb) return true;
  failed(HETLB_DIFFUSION_ERR_ARG, "NULL balancer: expected one made by hetlb_diffusion_create (and not freed)");
  return false;
}
}  // namespace

extern "C" {

void hetlb_diffusion_options_init(hetlb_diffusion_options* o) {
  const hetlb::mpi::DiffusionOptions d;
  *o = hetlb_diffusion_options{};
  o->topology = nullptr;
  o->strategy = nullptr;
  o->k = d.k;
  o->min_balancing_period = d.min_balancing_period;
  o->min_computing_period = d.min_computing_period;
  o->iterations = d.iterations;
  o->tolerance = d.tolerance;
  o->time_limit = d.time_limit;
  o->sync_interval = d.sync_interval;
  o->end_on_convergence = d.end_on_convergence ? 1 : 0;
  o->balance = nullptr;
  o->speeds = nullptr;
  o->speed_count = 0;
  o->speed_time_constant = d.speed_time_constant;
  o->speed_hysteresis = d.speed_hysteresis;
  o->speeds_file = nullptr;
}

int hetlb_diffusion_create(MPI_Comm comm, const hetlb_diffusion_options* options, size_t item_bytes,
                           hetlb_diffusion** out) {
  if (!out) return failed(HETLB_DIFFUSION_ERR_ARG, "out = NULL: expected the address of a hetlb_diffusion*");
  *out = nullptr;
  return guarded([&] {
    hetlb_diffusion_options c;
    hetlb_diffusion_options_init(&c);
    if (options) c = *options;
    *out = new hetlb_diffusion{hetlb::mpi::Diffusion(comm, to_cpp(c), item_bytes)};
  });
}

int hetlb_diffusion_create_with_callbacks(MPI_Comm comm, const hetlb_diffusion_options* options,
                                          hetlb_diffusion_size_fn size, hetlb_diffusion_pack_fn pack,
                                          hetlb_diffusion_unpack_fn unpack, hetlb_diffusion_choose_fn choose,
                                          void* user, hetlb_diffusion** out) {
  if (!out) return failed(HETLB_DIFFUSION_ERR_ARG, "out = NULL: expected the address of a hetlb_diffusion*");
  *out = nullptr;
  return guarded([&] {
    hetlb_diffusion_options c;
    hetlb_diffusion_options_init(&c);
    if (options) c = *options;
    hetlb::mpi::ItemCallbacks cb;
    if (size) cb.size = [size, user](std::uint64_t id) { return size(id, user); };
    if (pack) cb.pack = [pack, user](std::uint64_t id, void* buffer) { pack(id, buffer, user); };
    if (unpack)
      cb.unpack = [unpack, user](std::uint64_t id, const void* buffer, std::size_t bytes) {
        unpack(id, buffer, bytes, user);
      };
    if (choose)
      cb.choose = [choose, user](int neighbour, std::size_t count, std::uint64_t* ids) {
        return choose(neighbour, count, ids, user);
      };
    *out = new hetlb_diffusion{hetlb::mpi::Diffusion(comm, to_cpp(c), std::move(cb))};
  });
}

int hetlb_diffusion_add(hetlb_diffusion* lb, uint64_t id, const void* payload) {
  return guarded([&] { lb->lb.add(id, payload); });
}
int hetlb_diffusion_start(hetlb_diffusion* lb) {
  return guarded([&] { lb->lb.start(); });
}
size_t hetlb_diffusion_size(const hetlb_diffusion* lb) { return lb ? lb->lb.size() : 0; }
uint64_t hetlb_diffusion_id(const hetlb_diffusion* lb, size_t i) {
  uint64_t id = UINT64_MAX;
  if (usable(lb)) guarded([&] { id = lb->lb.id(i); });
  return id;
}
void* hetlb_diffusion_item(hetlb_diffusion* lb, size_t i) {
  void* item = nullptr;
  if (usable(lb)) guarded([&] { item = lb->lb.item(i); });
  return item;
}
int hetlb_diffusion_get(hetlb_diffusion* lb, size_t i, uint64_t* id, void** item) {
  if (!usable(lb)) return last_status;
  return guarded([&] {
    const uint64_t found = lb->lb.id(i);
    void* bytes = lb->lb.application_items() ? nullptr : lb->lb.item(i);
    if (id) *id = found;
    if (item) *item = bytes;
  });
}
int hetlb_diffusion_set_cost(hetlb_diffusion* lb, uint64_t id, double cost) {
  if (!usable(lb)) return last_status;
  return guarded([&] { lb->lb.set_cost(id, cost); });
}
int hetlb_diffusion_set_costs(hetlb_diffusion* lb, const double* costs, size_t n) {
  if (!usable(lb)) return last_status;
  if (!costs && n > 0) return failed(HETLB_DIFFUSION_ERR_ARG, "costs = NULL: expected n costs");
  return guarded([&] { lb->lb.set_costs(std::span<const double>(costs, n)); });
}
int hetlb_diffusion_cost(const hetlb_diffusion* lb, size_t i, double* cost) {
  if (!usable(lb)) return last_status;
  if (!cost) return failed(HETLB_DIFFUSION_ERR_ARG, "cost = NULL: expected the address of a double");
  return guarded([&] { *cost = lb->lb.cost(i); });
}
double hetlb_diffusion_load(const hetlb_diffusion* lb) { return lb ? lb->lb.load() : 0.0; }
int hetlb_diffusion_iteration_done(hetlb_diffusion* lb, int* running) {
  if (!usable(lb)) return last_status;
  return guarded([&] { *running = lb->lb.iteration_done() ? 1 : 0; });
}
int hetlb_diffusion_iteration_done_timed(hetlb_diffusion* lb, double compute_seconds, int* running) {
  if (!usable(lb)) return last_status;
  return guarded([&] { *running = lb->lb.iteration_done(compute_seconds) ? 1 : 0; });
}
double hetlb_diffusion_speed(const hetlb_diffusion* lb) { return lb ? lb->lb.speed() : 0.0; }
int hetlb_diffusion_progress(hetlb_diffusion* lb) {
  if (!usable(lb)) return last_status;
  return guarded([&] { lb->lb.progress(); });
}
int hetlb_diffusion_stop(hetlb_diffusion* lb) {
  if (!usable(lb)) return last_status;
  return guarded([&] { lb->lb.stop(); });
}
int hetlb_diffusion_threaded(const hetlb_diffusion* lb) { return lb && lb->lb.threaded() ? 1 : 0; }
int hetlb_diffusion_metrics_json(hetlb_diffusion* lb, char** json) {
  if (!json) return failed(HETLB_DIFFUSION_ERR_ARG, "json = NULL: expected the address of a char*");
  *json = nullptr;
  if (!usable(lb)) return last_status;
  return guarded([&] {
    const std::string s = lb->lb.metrics_json();
    int rank = 0;
    MPI_Comm_rank(lb->lb.graph(), &rank);
    if (rank != 0) return;
    *json = static_cast<char*>(std::malloc(s.size() + 1));
    std::memcpy(*json, s.c_str(), s.size() + 1);
  });
}
void hetlb_diffusion_free(hetlb_diffusion** lb) {
  if (!lb || !*lb) return;
  delete *lb;
  *lb = nullptr;
}
int hetlb_diffusion_set_balancer(hetlb_diffusion* lb, const char* balancer, long total_iterations) {
  if (!usable(lb)) return last_status;
  return guarded([&] { lb->lb.set_balancer(balancer ? balancer : "", total_iterations); });
}
size_t hetlb_diffusion_total_items(const hetlb_diffusion* lb) { return lb ? lb->lb.total_items() : 0; }
const char* hetlb_diffusion_notice(const hetlb_diffusion* lb) { return lb ? lb->lb.notice().c_str() : nullptr; }
int hetlb_diffusion_gather_by_id(hetlb_diffusion* lb, const void* local, size_t item_bytes, void* root_out,
                                 uint64_t* root_ids, int root) {
  if (!usable(lb)) return last_status;
  return guarded([&] { lb->lb.gather_by_id(local, item_bytes, root_out, root, root_ids); });
}
int hetlb_diffusion_scatter_by_id(hetlb_diffusion* lb, const void* root_in, size_t item_bytes, void* local,
                                  int root) {
  if (!usable(lb)) return last_status;
  return guarded([&] { lb->lb.scatter_by_id(root_in, item_bytes, local, root); });
}
const char* hetlb_diffusion_last_error(void) { return last_error.c_str(); }
int hetlb_diffusion_last_status(void) { return last_status; }
}
