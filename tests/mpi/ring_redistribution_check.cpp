// hetlb-mpi-ring-check: plans a random ring redistribution (one processor per rank), executes it with
// hetlb::mpi::redistribute_ring and checks every rank's final block: the items are the global
// indices 0..N-1, so P_i must end with the T_i indices that follow its predecessor's, circularly.
//   mpirun -np 5 hetlb-mpi-ring-check --seed 3 [--bidirectional] [--heterogeneous] [--bad-plan]
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <string>

#include <fmt/format.h>

#include "hetlb/mpi/distribution.hpp"
#include "hetlb/mpi/ring_redistribution.hpp"
#include "hetlb/ring/plan.hpp"

namespace {

using namespace hetlb;

ring::Ring random_ring(std::size_t n, unsigned seed, bool bidirectional, bool heterogeneous, Count max_load) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Count> load(1, max_load);
  std::uniform_real_distribution<double> cost(0.5, 2.0);
  ring::Ring r;
  Count total = 0;
  for (std::size_t i = 0; i < n; ++i) total += r.loads.emplace_back(load(rng));
  // Targets: at least one item each, the rest spread at random.
  r.targets.assign(n, 1);
  std::uniform_int_distribution<std::size_t> who(0, n - 1);
  for (Count k = static_cast<Count>(n); k < total; ++k) ++r.targets[who(rng)];
  for (std::size_t i = 0; i < n; ++i) {
    r.succ_cost.push_back(heterogeneous ? cost(rng) : 1.0);
    if (bidirectional) r.pred_cost.push_back(heterogeneous ? cost(rng) : 1.0);
  }
  return r;
}

int run(int argc, char** argv, int rank, int size) {
  unsigned seed = 1;
  bool bidirectional = false, heterogeneous = false, bad_plan = false;
  Count max_load = 40;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--seed" && a + 1 < argc) seed = static_cast<unsigned>(std::stoul(argv[++a]));
    else if (arg == "--max-load" && a + 1 < argc) max_load = std::stoll(argv[++a]);
    else if (arg == "--bidirectional") bidirectional = true;
    else if (arg == "--heterogeneous") heterogeneous = true;
    else if (arg == "--bad-plan") bad_plan = true;
    else {
      if (rank == 0) std::cerr << "hetlb-mpi-ring-check: unknown argument '" << arg << "'\n";
      return 2;
    }
  }
  const std::size_t n = static_cast<std::size_t>(size);
  const ring::Ring r = random_ring(n, seed, bidirectional, heterogeneous, max_load);
  ring::Plan plan = ring::plan_redistribution(r);
  if (bad_plan) plan.transfers.push_back(ring::Transfer{0, 1 % n, true, 1, 0.0, 1.0});  // unbalances P_0 and P_1
  // Global indices as the items; P_i's block starts after its predecessors' loads.
  Count start = 0, total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i < static_cast<std::size_t>(rank)) start += r.loads[i];
    total += r.loads[i];
  }
  std::vector<std::byte> block(static_cast<std::size_t>(r.loads[static_cast<std::size_t>(rank)]) * sizeof(std::int64_t));
  for (Count k = 0; k < r.loads[static_cast<std::size_t>(rank)]; ++k) {
    const std::int64_t v = start + k;
    std::memcpy(block.data() + static_cast<std::size_t>(k) * sizeof v, &v, sizeof v);
  }
  std::vector<std::byte> out;
  try {
    out = mpi::redistribute_ring(r, plan, std::move(block), sizeof(std::int64_t), MPI_COMM_WORLD);
  } catch (const mpi::Error& e) {
    if (rank == 0) std::cerr << "hetlb-mpi-ring-check: " << e.what() << "\n";
    return 1;
  }
  // Expected: P_i's first item is its old first item moved back by the net flow entering from P_{i-1}.
  const std::vector<Count> flow = mpi::net_link_flows(r, plan);
  const std::size_t me = static_cast<std::size_t>(rank);
  const Count first = ((start - flow[r.pred(me)]) % total + total) % total;
  int bad = 0;
  for (Count k = 0; k < r.targets[me]; ++k) {
    std::int64_t v = 0;
    std::memcpy(&v, out.data() + static_cast<std::size_t>(k) * sizeof v, sizeof v);
    if (v != (first + k) % total) bad = 1;
  }
  int any_bad = 0;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    if (any_bad) std::cerr << "hetlb-mpi-ring-check: a final block is not the expected range of items\n";
    else
      std::cout << fmt::format("ring of {} ({}, {}): {} items, {} transfers ({}), final blocks verified\n", n,
                               bidirectional ? "bidirectional" : "unidirectional",
                               heterogeneous ? "heterogeneous" : "homogeneous", total, plan.transfers.size(),
                               plan.algorithm);
  }
  return any_bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rc = 2;
  if (size < 2) {
    if (rank == 0) std::cerr << "hetlb-mpi-ring-check: a ring needs at least 2 ranks\n";
  } else {
    rc = run(argc, argv, rank, size);
  }
  MPI_Finalize();
  return rc;
}
