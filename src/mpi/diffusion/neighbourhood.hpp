// The neighbourhood of a rank: a distributed-graph communicator built from the simulator's topologies
// (diffusion::make_topology) or the application's own, checked symmetric and connected on every rank.
#pragma once
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/diffusion/topology.hpp"

namespace hetlb::mpi::detail {

struct Neighbourhood {
  MPI_Comm graph = MPI_COMM_NULL;  // owned (created or duplicated)
  std::vector<int> neighbours;     // ranks of `graph`, increasing: slot p is neighbours[p]
  std::string name;
};

// The default topology ("auto"): a torus where `ranks` fits one (4 or more, not prime), else a ring
// (3 and primes), a line of 2, a single node for 1.
diffusion::Topology auto_topology(int ranks);

// Collective. Throws hetlb::mpi::Error (HETLB_DIFFUSION_ERR_TOPOLOGY), the same on every rank.
Neighbourhood make_neighbourhood(MPI_Comm comm, const std::string& topology, bool use_comm_graph);

// Every rank throws the lowest failing rank's (status, reason); nothing when all succeed.
void agree(int status, const std::string& reason, MPI_Comm comm);

}  // namespace hetlb::mpi::detail
