// End-of-run check of hetlb-diffuse: every item id held by exactly one rank, its payload intact, its
// result the kernel's. Collective; returns "" or the first problem (the same on every rank).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"
#include "items.hpp"

namespace diffuse {

// expected_times > 0: every item must have been processed exactly that many times (--work).
// item(i): the bytes of the i-th item held (lb.item(i), or the application's copy).
std::string verify(hetlb::mpi::Diffusion& lb, const std::function<const void*(std::size_t)>& item, std::size_t item_bytes, std::uint64_t total,
                   const std::vector<seismic::Ray>& rays, const std::vector<seismic::Layer>* model, double flops,
                   MPI_Comm comm, std::uint64_t expected_times = 0);

}  // namespace diffuse
