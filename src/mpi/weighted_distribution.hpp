// The C entry point of weighted plans (hetlb_mpi_plan_create_weighted): the root's raw arguments are
// checked where the plan is made, so a refusal reaches every rank with the root's reason.
#pragma once
#include <string>

#include <mpi.h>

#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi::detail {

// Planned on comm. At the root: n > 0 weights at `weights` and layout HETLB_MPI_LAYOUT_CONTIGUOUS or
// HETLB_MPI_LAYOUT_ANY, else HETLB_MPI_E_BUFFER / HETLB_MPI_E_COUNT / HETLB_MPI_E_ARG on every rank.
Distribution plan_weighted_c(const std::string& platform_path, const double* weights, long long n, int layout, int root,
                             MPI_Comm comm);

}  // namespace hetlb::mpi::detail
