// What the ranks of a diffusion run must agree on, checked collectively: a refusal is the same
// hetlb::mpi::Error (HETLB_DIFFUSION_ERR_ARG) on every rank, with the lowest failing rank's reason.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace hetlb::mpi::detail {

// The options as (name, value) text, in a fixed order.
std::vector<std::pair<std::string, std::string>> option_fields(const DiffusionOptions& o, std::size_t item_bytes,
                                                               bool application_items);

// Collective: every option equal to rank 0's ("option strategy differs between ranks: ...").
void check_same_options(const DiffusionOptions& o, std::size_t item_bytes, bool application_items, MPI_Comm comm);

// Collective: no id added twice, on one rank or on two ("item id 42 added on ranks 0 and 3: ...").
void check_unique_ids(const std::vector<std::uint64_t>& ids, MPI_Comm comm);

}  // namespace hetlb::mpi::detail
