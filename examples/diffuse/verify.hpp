// End-of-run check of hetlb-diffuse: every item id held by exactly one rank, its payload intact, its
// result the kernel's. Collective; returns "" or the first problem (the same on every rank).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"
#include "items.hpp"

namespace diffuse {

std::string verify(hetlb::mpi::Diffusion& lb, std::size_t item_bytes, std::uint64_t total,
                   const std::vector<seismic::Ray>& rays, const std::vector<seismic::Layer>* model, double flops,
                   MPI_Comm comm);

}  // namespace diffuse
