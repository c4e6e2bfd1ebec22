// The C interface: handles on hetlb::mpi::Plan, every hetlb::mpi::Error turned into its MPI error
// class (the same on every rank for agreed errors), one line on the reporter's stderr, and the code
// handed to the error handler of the caller's communicator.
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>
#include <unordered_map>

#include "collective_status.hpp"
#include "weighted_distribution.hpp"
#include "hetlb/mpi/plan.hpp"
#include "hetlb/mpi/scatter.h"
#include "hetlb/mpi/scatter.hpp"

// A handle: the plan while alive; after hetlb_mpi_plan_free an empty shell that stays known (a freed
// handle is refused, never dereferenced into freed memory). Shells are a few bytes each, kept for the
// life of the process.
struct hetlb_mpi_plan_s {
  std::unique_ptr<hetlb::mpi::Plan> plan;
  bool was_root = false;
};

namespace {

std::mutex g_handles_mutex;
std::unordered_map<const hetlb_mpi_plan_s*, std::unique_ptr<hetlb_mpi_plan_s>> g_handles;

int report(const hetlb::mpi::Error& e, MPI_Comm comm) {
  if (e.reporter() && hetlb::mpi::detail::error_output()) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
  const int code = e.mpi_code();
  if (comm != MPI_COMM_NULL) MPI_Comm_call_errhandler(comm, code);
  return code;
}

bool world_rank0() {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

// The live plan of a handle, or an Error(HETLB_MPI_E_PLAN) reported by the freed plan's root (for an
// unknown handle, by rank 0 of MPI_COMM_WORLD).
hetlb::mpi::Plan& lookup(hetlb_mpi_plan handle) {
  std::lock_guard lock(g_handles_mutex);
  const auto it = g_handles.find(handle);
  if (handle == nullptr || it == g_handles.end())
    throw hetlb::mpi::Error(HETLB_MPI_E_PLAN,
                            handle == nullptr ? "plan = HETLB_MPI_PLAN_NULL: expected a plan from hetlb_mpi_plan_create"
                                              : "unknown plan handle: expected a plan from hetlb_mpi_plan_create",
                            world_rank0());
  if (!it->second->plan)
    throw hetlb::mpi::Error(HETLB_MPI_E_PLAN, "the plan was freed (hetlb_mpi_plan_free): create it again",
                            it->second->was_root);
  return *it->second->plan;
}

// Runs f; a hetlb::mpi::Error (or any exception, this rank only) becomes its MPI error code, reported
// to the communicator comm_of() gives, which is asked only when there is an error.
template <class C, class F>
int guarded_with(C&& comm_of, F&& f) {
  try {
    f();
    return MPI_SUCCESS;
  } catch (const hetlb::mpi::Error& e) {
    return report(e, comm_of());
  } catch (const std::exception& e) {  // allocation failures and the like: this rank only
    return report(hetlb::mpi::Error(HETLB_MPI_E_MPI, e.what(), true), comm_of());
  }
}

template <class F>
int guarded(MPI_Comm comm, F&& f) {
  return guarded_with([comm] { return comm; }, std::forward<F>(f));
}

// The communicator whose error handler hears about a plan's errors (none for unknown handles).
MPI_Comm parent_of(hetlb_mpi_plan handle) {
  std::lock_guard lock(g_handles_mutex);
  const auto it = g_handles.find(handle);
  return it != g_handles.end() && it->second->plan ? it->second->plan->parent() : MPI_COMM_NULL;
}

// A call on a live plan: its communicator is looked up only when there is an error to report.
template <class F>
int guarded_plan(hetlb_mpi_plan plan, F&& f) {
  return guarded_with([plan] { return parent_of(plan); }, std::forward<F>(f));
}

}  // namespace

namespace {

// Registers a new plan under a handle written to *plan (nothing when plan is NULL: the plan is dropped,
// collectively, like its creation).
void keep(std::unique_ptr<hetlb::mpi::Plan> p, hetlb_mpi_plan* plan) {
  if (!plan) return;
  auto handle = std::make_unique<hetlb_mpi_plan_s>();
  handle->was_root = p->rank() == p->distribution().root;
  handle->plan = std::move(p);
  std::lock_guard lock(g_handles_mutex);
  *plan = handle.get();
  g_handles.emplace(handle.get(), std::move(handle));
}

}  // namespace

extern "C" {

int hetlb_mpi_plan_create(const char* platform_path, long long n, int root, MPI_Comm comm, hetlb_mpi_plan* plan) {
  if (plan) *plan = HETLB_MPI_PLAN_NULL;
  return guarded(comm, [&] {
    keep(std::make_unique<hetlb::mpi::Plan>(std::string(platform_path ? platform_path : ""), n, root, comm), plan);
  });
}

int hetlb_mpi_plan_create_bound(const char* platform_path, long long n, int root, int binding, MPI_Comm comm,
                                hetlb_mpi_plan* plan) {
  if (plan) *plan = HETLB_MPI_PLAN_NULL;
  return guarded(comm, [&] {
    keep(std::make_unique<hetlb::mpi::Plan>(std::string(platform_path ? platform_path : ""), n, root, comm,
                                            hetlb::scatter::Request{}, static_cast<hetlb::mpi::Binding>(binding)),
         plan);
  });
}

int hetlb_mpi_plan_create_measured(double seconds_per_item, int item_bytes, long long n, int root, MPI_Comm comm,
                                   hetlb_mpi_plan* plan) {
  if (plan) *plan = HETLB_MPI_PLAN_NULL;
  return guarded(comm, [&] {
    keep(std::make_unique<hetlb::mpi::Plan>(hetlb::mpi::Plan::measured(seconds_per_item, item_bytes, n, root, comm)),
         plan);
  });
}

int hetlb_mpi_plan_create_weighted(const char* platform_path, long long n, const double* weights, int layout,
                                   int root, MPI_Comm comm, hetlb_mpi_plan* plan) {
  if (plan) *plan = HETLB_MPI_PLAN_NULL;
  return guarded(comm, [&] {
    keep(std::make_unique<hetlb::mpi::Plan>(
             hetlb::mpi::detail::plan_weighted_c(platform_path ? platform_path : "", weights, n, layout, root, comm),
             comm),
         plan);
  });
}

int hetlb_mpi_plan_item_ids(hetlb_mpi_plan plan, long long* ids) {
  return guarded_plan(plan, [&] {
    const std::vector<std::int64_t>& mine = lookup(plan).item_ids();
    if (ids) std::copy(mine.begin(), mine.end(), ids);
  });
}

int hetlb_mpi_plan_predicted(hetlb_mpi_plan plan, double* compute_seconds) {
  return guarded_plan(plan, [&] {
    const hetlb::mpi::Plan& p = lookup(plan);
    if (compute_seconds) *compute_seconds = p.predicted_compute();
  });
}

int hetlb_mpi_plan_check(hetlb_mpi_plan plan, double seconds, double margin, int replan, int* status,
                         double* departure) {
  return guarded_plan(plan, [&] {
    const hetlb::mpi::PlanCheck& c = lookup(plan).check(seconds, margin, replan != 0);
    if (status) *status = c.status;
    if (departure) *departure = c.departure;
  });
}

int hetlb_mpi_plan_status(hetlb_mpi_plan plan, int* status, double* departure, int* worst_rank) {
  return guarded_plan(plan, [&] {
    const hetlb::mpi::PlanCheck& c = lookup(plan).last_check();
    if (status) *status = c.status;
    if (departure) *departure = c.departure;
    if (worst_rank) *worst_rank = c.worst_rank;
  });
}

int hetlb_mpi_plan_counts(hetlb_mpi_plan plan, int* counts, int* displs, int* send_order) {
  return guarded_plan(plan, [&] {
    const hetlb::mpi::Distribution& d = lookup(plan).distribution();
    for (std::size_t r = 0; r < d.counts.size(); ++r) {
      if (counts) counts[r] = d.counts[r];
      if (displs) displs[r] = d.displs[r];
      if (send_order) send_order[r] = d.send_order[r];
    }
  });
}

int hetlb_mpi_plan_share(hetlb_mpi_plan plan, int* count, long long* offset) {
  return guarded_plan(plan, [&] {
    const hetlb::mpi::Plan& p = lookup(plan);
    if (count) *count = p.count();
    if (offset) *offset = p.offset();
  });
}

int hetlb_mpi_plan_gather_order(hetlb_mpi_plan plan, int* gather_order, double* scatter_makespan,
                                double* gather_completion) {
  return guarded_plan(plan, [&] {
    const hetlb::mpi::Distribution& d = lookup(plan).distribution();
    if (gather_order) std::copy(d.gather_order.begin(), d.gather_order.end(), gather_order);
    if (scatter_makespan) *scatter_makespan = d.predicted_makespan;
    if (gather_completion) *gather_completion = d.predicted_gather;
  });
}

int hetlb_mpi_plan_scatter(hetlb_mpi_plan plan, const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                           MPI_Datatype recvtype) {
  return guarded_plan(plan, [&] { lookup(plan).scatter(sendbuf, sendtype, recvbuf, recvtype); });
}

int hetlb_mpi_plan_gather(hetlb_mpi_plan plan, const void* sendbuf, MPI_Datatype sendtype, void* recvbuf,
                          MPI_Datatype recvtype) {
  return guarded_plan(plan, [&] { lookup(plan).gather(sendbuf, sendtype, recvbuf, recvtype); });
}

int hetlb_mpi_plan_set_checks(hetlb_mpi_plan plan, int enabled) {
  return guarded_plan(plan, [&] { lookup(plan).set_checks(enabled != 0); });
}

int hetlb_mpi_plan_free(hetlb_mpi_plan* plan) {
  return guarded(plan ? parent_of(*plan) : MPI_COMM_NULL, [&] {
    if (!plan) throw hetlb::mpi::Error(HETLB_MPI_E_PLAN, "hetlb_mpi_plan_free(NULL): expected the address of a plan", world_rank0());
    lookup(*plan);
    std::unique_ptr<hetlb::mpi::Plan> dying;
    {
      std::lock_guard lock(g_handles_mutex);
      dying = std::move(g_handles.at(*plan)->plan);
    }
    dying.reset();  // MPI_Comm_free, outside the lock
    *plan = HETLB_MPI_PLAN_NULL;
  });
}

int hetlb_mpi_scatterv_counts(const char* platform_path, long long n, int root, MPI_Comm comm, int* counts,
                              int* displs, int* send_order) {
  return guarded(comm, [&] {
    const hetlb::mpi::Distribution d =
        hetlb::mpi::plan_distribution(std::string(platform_path ? platform_path : ""), n, root, comm);
    for (std::size_t r = 0; r < d.counts.size(); ++r) {
      if (counts) counts[r] = d.counts[r];
      if (displs) displs[r] = d.displs[r];
      if (send_order) send_order[r] = d.send_order[r];
    }
  });
}

int hetlb_mpi_scatter(const void* sendbuf, long long n, MPI_Datatype type, void* recvbuf, int recv_capacity,
                      int root, const char* platform_path, MPI_Comm comm, int* count, long long* offset,
                      MPI_Comm* plan_comm) {
  return guarded(comm, [&] {
    const hetlb::mpi::Plan plan(std::string(platform_path ? platform_path : ""), n, root, comm);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    hetlb::mpi::detail::agree_all(
        recv_capacity < plan.count() ? HETLB_MPI_E_BUFFER : 0,
        "rank " + std::to_string(rank) + ": receive buffer of " + std::to_string(recv_capacity) +
            " items for a share of " + std::to_string(plan.count()) + " items",
        plan.comm(), root);
    plan.scatter(sendbuf, type, recvbuf, type);
    if (count) *count = plan.count();
    if (offset) *offset = plan.offset();
    if (plan_comm) *plan_comm = hetlb::mpi::plan_communicator(plan.distribution(), comm);
  });
}

}  // extern "C"
