// hetlb::mpi::Plan: a distribution planned once, with its own duplicate of the caller's communicator.
#include "hetlb/mpi/plan.hpp"

#include <utility>

#include "collective_status.hpp"

namespace hetlb::mpi {

namespace {

// A duplicate of comm whose errors come back as codes (hetlb turns them into HETLB_MPI_E_MPI).
MPI_Comm duplicate(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) {
    int world_rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    throw Error(HETLB_MPI_E_COMM, "comm = MPI_COMM_NULL: expected a communicator", world_rank == 0);
  }
  MPI_Comm dup = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup", comm);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  return dup;
}

}  // namespace

void Plan::adopt(MPI_Comm comm) {
  comm_ = comm;
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Plan::Plan(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm, scatter::Request request, Binding binding)
    : request_(request) {
  MPI_Comm dup = duplicate(comm);
  try {
    d_ = plan_distribution(platform_path, n, root, dup, request, binding);
  } catch (...) {
    MPI_Comm_free(&dup);
    throw;
  }
  d_.comm = comm;
  adopt(dup);
}

Plan::Plan(const Platform& platform, std::int64_t n, int root, MPI_Comm comm, scatter::Request request, Binding binding)
    : request_(request) {
  MPI_Comm dup = duplicate(comm);
  try {
    d_ = plan_distribution(platform, n, root, dup, request, binding);
  } catch (...) {
    MPI_Comm_free(&dup);
    throw;
  }
  d_.comm = comm;
  adopt(dup);
}

Plan::Plan(MPI_Comm dup, MPI_Comm parent, Distribution d, scatter::Request request)
    : request_(request), d_(std::move(d)) {
  d_.comm = parent;
  adopt(dup);
}

Plan Plan::measured(double seconds_per_item, int item_bytes, std::int64_t n, int root, MPI_Comm comm,
                    scatter::Request request) {
  MPI_Comm dup = duplicate(comm);
  Distribution d;
  try {
    const Platform platform = measured_platform(seconds_per_item, item_bytes, root, dup);
    d = plan_distribution(platform, n, root, dup, request);
  } catch (...) {
    MPI_Comm_free(&dup);
    throw;
  }
  return Plan(dup, comm, std::move(d), request);
}

namespace {
template <class Source>
Distribution weighted_on(const Source& source, const std::vector<double>& weights, scatter::Layout layout, int root,
                         MPI_Comm dup, const scatter::Request& request, Binding binding) {
  try {
    return plan_distribution_weighted(source, weights, layout, root, dup, request, binding);
  } catch (...) {
    MPI_Comm_free(&dup);
    throw;
  }
}
}  // namespace

Plan Plan::weighted(const std::string& platform_path, const std::vector<double>& weights, scatter::Layout layout,
                    int root, MPI_Comm comm, scatter::Request request, Binding binding) {
  MPI_Comm dup = duplicate(comm);
  Distribution d = weighted_on(platform_path, weights, layout, root, dup, request, binding);
  return Plan(dup, comm, std::move(d), request);
}

Plan Plan::weighted(const Platform& platform, const std::vector<double>& weights, scatter::Layout layout, int root,
                    MPI_Comm comm, scatter::Request request, Binding binding) {
  MPI_Comm dup = duplicate(comm);
  Distribution d = weighted_on(platform, weights, layout, root, dup, request, binding);
  return Plan(dup, comm, std::move(d), request);
}

Plan::Plan(Distribution distribution, MPI_Comm comm) : d_(std::move(distribution)) {
  int same = MPI_UNEQUAL;
  if (comm != MPI_COMM_NULL && d_.comm != MPI_COMM_NULL) MPI_Comm_compare(d_.comm, comm, &same);
  int rank = 0;
  if (comm != MPI_COMM_NULL) MPI_Comm_rank(comm, &rank);
  if (same != MPI_IDENT)  // decided alike on every rank that passes the same distribution and comm
    throw Error(HETLB_MPI_E_COMM,
                "the distribution was planned on another communicator: plan again on this one", rank == d_.root);
  d_.comm = comm;
  adopt(duplicate(comm));
}

Plan::Plan(Plan&& other) noexcept
    : request_(other.request_), last_check_(other.last_check_), d_(std::move(other.d_)),
      comm_(std::exchange(other.comm_, MPI_COMM_NULL)), rank_(other.rank_), size_(other.size_), checks_(other.checks_) {}

Plan& Plan::operator=(Plan&& other) noexcept {
  if (this != &other) {
    Plan old(std::move(*this));
    request_ = other.request_;
    last_check_ = other.last_check_;
    d_ = std::move(other.d_);
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    rank_ = other.rank_;
    size_ = other.size_;
    checks_ = other.checks_;
  }
  return *this;
}

Plan::~Plan() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

void Plan::set_checks(bool enabled) {
  if (!valid()) throw Error(HETLB_MPI_E_PLAN, "the plan is empty (moved from, or never created)", true);
  const int mine[2] = {enabled ? 1 : 0, enabled ? 0 : 1};
  int any[2] = {0, 0};
  detail::check_mpi(MPI_Allreduce(mine, any, 2, MPI_INT, MPI_MAX, comm_), "MPI_Allreduce", comm_);
  if (any[0] && any[1])
    throw Error(HETLB_MPI_E_PLAN, "hetlb_mpi_plan_set_checks: the ranks passed different values; the checks stay on",
                rank_ == d_.root);
  checks_ = enabled;
}

}  // namespace hetlb::mpi
