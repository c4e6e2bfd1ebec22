// A persistent load-balanced scatter/gather plan (C++ interface of hetlb/mpi/plan.h): planned once,
// used for many scatters and gathers, over a duplicate of the caller's communicator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi {

// The outcome of Plan::check (hetlb_mpi_plan_check): the same on every rank.
struct PlanCheck {
  int status = HETLB_MPI_PLAN_ON_TRACK;  // hetlb_mpi_plan_status
  double departure = 0;                  // largest |measured - predicted| / predicted over ranks with items
  int worst_rank = -1;                   // where it was (-1 before any check)
};

class Plan {
 public:
  Plan() = default;
  // Collective over comm; throws hetlb::mpi::Error on every rank. Only the root's n and platform count.
  Plan(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm, scatter::Request request = {},
       Binding binding = Binding::Position);
  Plan(const Platform& platform, std::int64_t n, int root, MPI_Comm comm, scatter::Request request = {},
       Binding binding = Binding::Position);
  // Collective: a plan from each rank's measured seconds per item and the root's timed links
  // (hetlb_mpi_plan_create_measured). Only the root's n and item_bytes count.
  static Plan measured(double seconds_per_item, int item_bytes, std::int64_t n, int root, MPI_Comm comm,
                       scatter::Request request = {});
  // Collective: a plan for items of unequal cost (hetlb_mpi_plan_create_weighted). Only the root's
  // weights (one per item, the work of each) and layout count.
  static Plan weighted(const std::string& platform_path, const std::vector<double>& weights, scatter::Layout layout,
                       int root, MPI_Comm comm, scatter::Request request = {}, Binding binding = Binding::Position);
  static Plan weighted(const Platform& platform, const std::vector<double>& weights, scatter::Layout layout, int root,
                       MPI_Comm comm, scatter::Request request = {}, Binding binding = Binding::Position);
  // A plan from a distribution planned on comm (throws HETLB_MPI_E_COMM on every rank otherwise).
  Plan(Distribution distribution, MPI_Comm comm);
  Plan(Plan&& other) noexcept;
  Plan& operator=(Plan&& other) noexcept;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan();  // frees the duplicated communicator (collective, as MPI_Comm_free)

  const Distribution& distribution() const { return d_; }
  int count() const { return d_.counts[static_cast<std::size_t>(rank_)]; }
  std::int64_t offset() const { return d_.displs[static_cast<std::size_t>(rank_)]; }
  int rank() const { return rank_; }
  // This rank's item ids, in the order of its block: [offset, offset + count) unless the layout is any.
  const std::vector<std::int64_t>& item_ids() const { return d_.item_ids; }
  MPI_Comm comm() const { return comm_; }      // hetlb's duplicate
  MPI_Comm parent() const { return d_.comm; }  // the communicator it was created on
  bool valid() const { return comm_ != MPI_COMM_NULL; }

  // Collective; see hetlb_mpi_plan_scatter / hetlb_mpi_plan_gather. Throws hetlb::mpi::Error.
  void scatter(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype) const;
  void gather(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype) const;

  // Collective; see hetlb_mpi_plan_set_checks. Every rank must pass the same value (checked).
  void set_checks(bool enabled);
  bool checks() const { return checks_; }

  // This rank's predicted computing time for its share (the platform's time unit).
  double predicted_compute() const { return d_.predicted_compute[static_cast<std::size_t>(rank_)]; }
  // Collective; see hetlb_mpi_plan_check. Throws hetlb::mpi::Error (HETLB_MPI_E_ARG) on every rank for a
  // negative or non-finite time, a margin <= 0, or margin/replan differing between ranks.
  const PlanCheck& check(double seconds, double margin, bool replan);
  const PlanCheck& last_check() const { return last_check_; }

 private:
  Plan(MPI_Comm dup, MPI_Comm parent, Distribution d, scatter::Request request);
  void adopt(MPI_Comm comm);
  scatter::Request request_;
  PlanCheck last_check_;
  Distribution d_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 0;
  bool checks_ = true;
};

}  // namespace hetlb::mpi
