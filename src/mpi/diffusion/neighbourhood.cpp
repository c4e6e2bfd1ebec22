// Neighbourhood communicator of the diffusion runtime: MPI_Dist_graph_create_adjacent from a topology
// of the simulator (the same checks: symmetric, loop-free, connected), or the application's graph.
#include "neighbourhood.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "hetlb/diffusion/topology.hpp"
#include "hetlb/mpi/diffusion.h"
#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi::detail {

void agree(int status, const std::string& reason, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = status != HETLB_DIFFUSION_SUCCESS ? rank : size, reporter = size;
  MPI_Allreduce(&mine, &reporter, 1, MPI_INT, MPI_MIN, comm);
  if (reporter == size) return;
  int header[2] = {status, static_cast<int>(reason.size())};
  MPI_Bcast(header, 2, MPI_INT, reporter, comm);
  std::string text = reason;
  text.resize(static_cast<std::size_t>(header[1]));
  MPI_Bcast(text.data(), header[1], MPI_CHAR, reporter, comm);
  throw Error(header[0], text);
}

namespace {
// The application's graph: every rank's adjacency gathered, then the simulator's checks.
diffusion::Topology topology_of_graph(MPI_Comm comm, int size, int& status, std::string& reason) {
  int kind = MPI_UNDEFINED;
  MPI_Topo_test(comm, &kind);
  diffusion::Topology t{"communicator graph", std::vector<std::vector<int>>(size)};
  int in = 0, out = 0, weighted = 0;
  std::vector<int> mine;
  if (kind != MPI_DIST_GRAPH) {
    status = HETLB_DIFFUSION_ERR_TOPOLOGY;
    reason = "use_comm_graph: the communicator has no distributed-graph topology; expected one made with "
             "MPI_Dist_graph_create_adjacent";
  } else {
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    std::vector<int> sources(in), destinations(out);
    MPI_Dist_graph_neighbors(comm, in, sources.data(), MPI_UNWEIGHTED, out, destinations.data(), MPI_UNWEIGHTED);
    mine = destinations;
    std::sort(sources.begin(), sources.end());
    std::sort(destinations.begin(), destinations.end());
    if (sources != destinations) {
      status = HETLB_DIFFUSION_ERR_TOPOLOGY;
      reason = "use_comm_graph: a rank's sources and destinations differ; expected an undirected graph";
    }
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(size), displs(size);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<int> all(static_cast<std::size_t>(displs[size - 1] + counts[size - 1]));
  MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, comm);
  for (int r = 0; r < size; ++r) {
    t.neighbours[r].assign(all.begin() + displs[r], all.begin() + displs[r] + counts[r]);
    std::sort(t.neighbours[r].begin(), t.neighbours[r].end());
  }
  return t;
}
bool is_prime(int n) {
  if (n < 2) return false;
  for (int d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}
}  // namespace

diffusion::Topology auto_topology(int ranks) {
  if (ranks == 1) return {"single rank", {{}}};
  if (ranks == 2) return diffusion::make_topology("line", ranks);
  if (ranks == 3 || is_prime(ranks)) return diffusion::make_topology("ring", ranks);
  return diffusion::make_topology("torus", ranks);
}

Neighbourhood make_neighbourhood(MPI_Comm comm, const std::string& topology, bool use_comm_graph) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int status = HETLB_DIFFUSION_SUCCESS;
  std::string reason;
  diffusion::Topology t;
  if (use_comm_graph) {
    t = topology_of_graph(comm, size, status, reason);
  } else {
    try {
      t = topology == "auto" ? auto_topology(size) : diffusion::make_topology(topology, size);
    } catch (const std::exception& e) {
      status = HETLB_DIFFUSION_ERR_TOPOLOGY;
      reason = e.what();
    }
  }
  if (status == HETLB_DIFFUSION_SUCCESS && size > 1) {
    try {
      diffusion::validate_topology(t, use_comm_graph ? "communicator graph" : topology);
      if (t.size() != size)
        throw hetlb::Error(fmt::format("topology \"{}\": {} nodes for {} ranks; expected one node per rank", topology,
                                       t.size(), size));
    } catch (const std::exception& e) {
      status = HETLB_DIFFUSION_ERR_TOPOLOGY;
      reason = e.what();
    }
  }
  agree(status, reason, comm);
  Neighbourhood n;
  n.name = use_comm_graph ? "communicator graph" : t.name;
  n.neighbours = t.neighbours[rank];
#ifdef HETLB_SMPI
  // SMPI (SimGrid 3.32) has no MPI_Dist_graph_create_adjacent: the runtime only needs point-to-point
  // messages between neighbours, so a duplicate of the communicator stands in for the graph.
  MPI_Comm_dup(comm, &n.graph);
  if (n.graph != MPI_COMM_NULL) return n;
#endif
  if (use_comm_graph) {
    MPI_Comm_dup(comm, &n.graph);
  } else {
    const int degree = static_cast<int>(n.neighbours.size());
    MPI_Dist_graph_create_adjacent(comm, degree, n.neighbours.data(), MPI_UNWEIGHTED, degree, n.neighbours.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &n.graph);
  }
  return n;
}

}  // namespace hetlb::mpi::detail
