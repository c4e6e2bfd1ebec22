// The balancer option of the diffusion runtime (global_step.cpp): diffusion, global or hybrid.
#pragma once
#include "hetlb/mpi/diffusion.hpp"

namespace hetlb::mpi::detail {

// Throws hetlb::Error naming the bad value: an unknown balancer, "global" outside the bulk-synchronous
// mode, total_iterations < 0, global_min_interval < 1.
void check_balancer(const DiffusionOptions& o);

}  // namespace hetlb::mpi::detail
