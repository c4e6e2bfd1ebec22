// Moves that cannot pay are not made (docs/runtime.md, "Hand-overs between steps"):
//   hetlb-mpi-diffusion-declined-check --seconds-per-item S [--item-kib K] [--calls N] [--expect none|moves]
//                                      [--cost C]
// The balancer hybrid with its defaults, bulk-synchronous, the program's N calls declared; rank 0 holds
// 40 items of K KiB (1,024: a move copies a MiB per item), every other rank one. Each iteration the
// program tells iteration_done() it computed S seconds per item held, without computing (the speeds are
// then exact and the run fast). With S = 1e-9 a MiB item costs a million times more to move than to
// compute over the run: --expect none checks that no global step is taken and that no hand-over
// happens (no data message at all: a hand-over sends one to each neighbour, even empty). With S = 1e-2
// (--expect moves) every move pays: some item must move. With --cost C every item's cost is set to C
// after start() (set_costs, as a program does once it has timed its items): the cost of moving, probed
// per item inside start(), must follow per unit of work (a million units per item make a unit a
// millionth of an item: a move still pays). Every item is held by exactly one rank after
// every call (count and id sums), and its payload is intact at the end. Exit 0 when every check passes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
int fail(int rank, long call, const std::string& what) {
  std::fprintf(stderr, "declined-check: rank %d, call %ld: %s\n", rank, call, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  double seconds_per_item = 1e-9;
  long calls = 30, kib = 1024;
  double cost = 0;
  std::string expect = "none";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--seconds-per-item") seconds_per_item = std::atof(v.c_str());
    else if (a == "--item-kib") kib = std::atol(v.c_str());
    else if (a == "--calls") calls = std::atol(v.c_str());
    else if (a == "--expect") expect = v;
    else if (a == "--cost") cost = std::atof(v.c_str());
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::size_t bytes = static_cast<std::size_t>(kib) * 1024;
  const std::uint64_t first_count = 40;
  const std::uint64_t total = first_count + static_cast<std::uint64_t>(size - 1);
  const std::uint64_t first = rank == 0 ? 0 : first_count + static_cast<std::uint64_t>(rank - 1);
  const std::uint64_t mine = rank == 0 ? first_count : 1;

  hetlb::mpi::DiffusionOptions o;
  o.bulk_synchronous = true;
  o.end_on_convergence = false;  // the program ends the run after its declared calls
  int code = 0;
  {
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, bytes);
    lb.set_balancer("", calls);  // the default balancer (hybrid), the calls declared
    std::vector<char> payload(bytes);
    for (std::uint64_t id = first; id < first + mine; ++id) {
      std::memset(payload.data(), static_cast<int>(id % 251), bytes);
      std::memcpy(payload.data(), &id, sizeof id);
      lb.add(id, payload.data());
    }
    lb.start();
    if (cost > 0) lb.set_costs(std::vector<double>(lb.size(), cost));
    std::uint64_t sum = 0;
    for (std::uint64_t id = 0; id < total; ++id) sum += id;
    for (long call = 1; call <= calls; ++call) {
      lb.iteration_done(seconds_per_item * static_cast<double>(lb.size()));
      if (cost > 0) lb.set_costs(std::vector<double>(lb.size(), cost));  // items that arrived: cost C too
      std::uint64_t held[2] = {lb.size(), 0}, all[2];
      for (std::size_t i = 0; i < lb.size(); ++i) held[1] += lb.id(i);
      MPI_Allreduce(held, all, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      if (all[0] != total || all[1] != sum)
        return fail(rank, call, "items held: " + std::to_string(all[0]) + " of " + std::to_string(total) +
                                    " (or their id sum differs)");
    }
    lb.stop();
    for (std::size_t i = 0; i < lb.size(); ++i) {
      const auto* p = static_cast<const unsigned char*>(lb.item(i));
      std::uint64_t id = 0;
      std::memcpy(&id, p, sizeof id);
      if (id != lb.id(i) || p[bytes - 1] != static_cast<unsigned char>(id % 251))
        return fail(rank, calls, "payload of item " + std::to_string(lb.id(i)) + " differs");
    }
    const hetlb::diffusion::Metrics m = lb.metrics();  // checks conservation itself
    const double moved = m.data_transfer_amount * static_cast<double>(total);  // items: every one costs the same
    if (rank == 0)
      std::printf("declined-check: %g s per item, %ld KiB items: %zu global step(s), %llu data message(s), "
                  "%.0f items moved\n",
                  seconds_per_item, kib, m.global_steps.size(), static_cast<unsigned long long>(m.data_messages),
                  moved);
    if (expect == "none") {
      if (!m.global_steps.empty()) code = fail(rank, calls, "a global step was taken where no move pays");
      if (m.data_messages != 0)
        code = fail(rank, calls, std::to_string(m.data_messages) + " data messages where no move pays (hand-overs)");
      if (moved != 0) code = fail(rank, calls, "items moved where no move pays");
    } else if (!(moved > 0)) {
      code = fail(rank, calls, "no item moved where every move pays");
    }
  }
  MPI_Finalize();
  return code;
}
