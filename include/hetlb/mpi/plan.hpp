// A persistent load-balanced scatter/gather plan (C++ interface of hetlb/mpi/plan.h): planned once,
// used for many scatters and gathers, over a duplicate of the caller's communicator.
#pragma once
#include <cstdint>
#include <string>

#include <mpi.h>

#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi {

class Plan {
 public:
  Plan() = default;
  // Collective over comm; throws hetlb::mpi::Error on every rank. Only the root's n and platform count.
  Plan(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm, scatter::Request request = {});
  Plan(const Platform& platform, std::int64_t n, int root, MPI_Comm comm, scatter::Request request = {});
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
  MPI_Comm comm() const { return comm_; }      // hetlb's duplicate
  MPI_Comm parent() const { return d_.comm; }  // the communicator it was created on
  bool valid() const { return comm_ != MPI_COMM_NULL; }

  // Collective; see hetlb_mpi_plan_scatter / hetlb_mpi_plan_gather. Throws hetlb::mpi::Error.
  void scatter(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype) const;
  void gather(const void* sendbuf, MPI_Datatype sendtype, void* recvbuf, MPI_Datatype recvtype) const;

  // Collective; see hetlb_mpi_plan_set_checks. Every rank must pass the same value (checked).
  void set_checks(bool enabled);
  bool checks() const { return checks_; }

 private:
  void adopt(MPI_Comm comm);
  Distribution d_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 0;
  bool checks_ = true;
};

}  // namespace hetlb::mpi
