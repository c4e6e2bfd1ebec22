// The distribution of a load-balanced scatter over an MPI communicator (RR-4770, Section 5: the
// MPI_Scatter of the seismic code replaced by MPI_Scatterv with the planner's counts).
// Processor k of the platform (after `count` expansion) is rank k of the communicator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/error.hpp"
#include "hetlb/model/platform.hpp"
#include "hetlb/mpi/scatter.h"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::mpi {

// Raised identically on every rank of the communicator: `status` is a hetlb_mpi_status code and
// what() the one-line reason found by rank 0.
class Error : public hetlb::Error {
 public:
  Error(int status, const std::string& what) : hetlb::Error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

struct Distribution {
  std::vector<int> counts;      // items of each rank, in rank order
  std::vector<int> displs;      // first item of each rank in the root's buffer (prefix sums, rank order)
  std::vector<int> send_order;  // ranks in the order the root serves them, root last
  int root = 0;
  double predicted_makespan = 0;  // equation (2) for the plan, in the platform's time unit

  std::int64_t total() const;
};

// Collective. Rank 0 checks the arguments and plans with hetlb::scatter::plan_scatter (request.root is
// set to processor `root`, request.items to n); the verdict and the plan are broadcast, so every rank
// returns the same distribution or throws the same hetlb::mpi::Error.
Distribution plan_distribution(const Platform& platform, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request = {});
// Same, the platform read by rank 0 from a hetlb platform JSON file.
Distribution plan_distribution(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request = {});

// A communicator over the same processes whose rank i is the i-th served by the plan (root last).
MPI_Comm plan_communicator(const Distribution& distribution, MPI_Comm comm);

}  // namespace hetlb::mpi
