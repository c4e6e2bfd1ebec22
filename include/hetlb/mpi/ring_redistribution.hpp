// Executes a ring redistribution plan (Renard, Robert, Vivien; see hetlb/ring/plan.hpp) for real:
// rank i of `comm` is processor P_i and holds its L_i items as one contiguous block of the global,
// circularly ordered data (the paper's matrix-columns example). Items move only between ring
// neighbours, over a periodic 1-D Cartesian communicator; a transfer to the successor carries the
// sender's last items, one to the predecessor its first items, so the global order is preserved and
// P_i ends with the T_i items that follow its predecessor's in circular order.
//
// Each rank sends its transfers in the plan's order, each as soon as (and in as many pieces as) its
// items are held, and takes in whatever arrives meanwhile: with one net flow per link and every
// processor balanced, no rank can wait forever. The result is checked against the targets.
// Collective; errors (size mismatch, a block of the wrong size, transfers between non-neighbours or
// both ways on one link, targets not reached) throw hetlb::mpi::Error with the same one-line message
// on every rank.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "hetlb/ring/problem.hpp"
#include "hetlb/ring/schedule.hpp"

namespace hetlb::mpi {

// `block` holds ring.loads[rank] items of `item_bytes` bytes each; returns the rank's final block
// (ring.targets[rank] items) in global order.
std::vector<std::byte> redistribute_ring(const ring::Ring& ring, const ring::Plan& plan, std::vector<std::byte> block,
                                         std::size_t item_bytes, MPI_Comm comm);

// Net number of items crossing the link P_i -> P_{i+1} (forward minus backward), for every i: where
// the final blocks begin (P_{i+1}'s first item is its old first item moved back by this much).
std::vector<Count> net_link_flows(const ring::Ring& ring, const ring::Plan& plan);

}  // namespace hetlb::mpi
