// A block-partitioned 1-D stencil balanced by the diffusion runtime (docs/runtime.md, "Items"):
// explicit heat diffusion on N cells, each rank holding one contiguous block [lo, lo + u.size()),
// a halo exchange with its left and right ranks every step (MPI_Sendrecv), the cells as items
// moved through pack/unpack callbacks with choose() giving the cells at the border with the neighbour
// (a line topology: rank r - 1 gets the lowest cells, r + 1 the highest; every rank keeps at least
// one). The runtime is bulk-synchronous, so cells move only inside iteration_done() and the blocks'
// boundaries are settled before the next halo exchange; hand-overs are netted per edge, so cells
// never cross and the blocks stay contiguous.
//
//   mpirun -np 4 hetlb-heat-blocks [--cells N] [--steps S] [--progress calls|thread]
//
// Rank 0 starts with almost every cell. At the end rank 0 gathers the field and compares it, bit for
// bit, with the same steps computed on one rank; exit 0 when equal and every cell was held once.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
constexpr double kLeftBoundary = 1.0, kRightBoundary = 0.0, kAlpha = 0.25;

double step(double left, double mine, double right) { return mine + kAlpha * (left - 2 * mine + right); }

struct Block {
  long lo = 0;
  std::deque<double> u;
  long hi() const { return lo + static_cast<long>(u.size()); }
};

[[noreturn]] void fail(int rank, const std::string& what) {
  std::fprintf(stderr, "heat-blocks: rank %d: %s\n", rank, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}
}  // namespace

int main(int argc, char** argv) {
  long cells = 0, steps = 300;
  std::string progress = "calls";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--cells") cells = std::atol(argv[i + 1]);
    if (a == "--steps") steps = std::atol(argv[i + 1]);
    if (a == "--progress") progress = argv[i + 1];
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (cells <= 0) cells = 48L * size;
  // Rank r > 0 starts with 2 cells, rank 0 with the rest: lo of rank r = cells - 2 (size - r).
  Block b;
  b.lo = rank == 0 ? 0 : cells - 2L * (size - rank);
  const long hi0 = rank == size - 1 ? cells : cells - 2L * (size - rank - 1);
  for (long c = b.lo; c < hi0; ++c) b.u.push_back(0.0);
  const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;

  hetlb::mpi::ItemCallbacks cells_moved;
  cells_moved.size = [](std::uint64_t) { return sizeof(double); };
  cells_moved.choose = [&](int neighbour, std::size_t count, std::uint64_t* ids) {
    const std::size_t k = std::min(count, b.u.size() - 1);  // keep one cell: the halo partners stay r +- 1
    for (std::size_t i = 0; i < k; ++i)
      ids[i] = static_cast<std::uint64_t>(neighbour < rank ? b.lo + static_cast<long>(i) : b.hi() - 1 - static_cast<long>(i));
    return k;
  };
  cells_moved.pack = [&](std::uint64_t id, void* buffer) {  // in choose()'s order: always an end of the block
    const long c = static_cast<long>(id);
    if (c == b.lo) {
      std::memcpy(buffer, &b.u.front(), sizeof(double));
      b.u.pop_front();
      ++b.lo;
    } else if (c == b.hi() - 1) {
      std::memcpy(buffer, &b.u.back(), sizeof(double));
      b.u.pop_back();
    } else {
      fail(rank, "pack of cell " + std::to_string(c) + " inside the block");
    }
  };
  cells_moved.unpack = [&](std::uint64_t id, const void* buffer, std::size_t) {  // next to the block
    double v = 0;
    std::memcpy(&v, buffer, sizeof v);
    const long c = static_cast<long>(id);
    if (c == b.lo - 1) {
      b.u.push_front(v);
      --b.lo;
    } else if (c == b.hi()) {
      b.u.push_back(v);
    } else {
      fail(rank, "cell " + std::to_string(c) + " arrived away from the block [" + std::to_string(b.lo) + ", " +
                     std::to_string(b.hi()) + ")");
    }
  };

  hetlb::mpi::DiffusionOptions o;
  o.topology = "line";
  o.bulk_synchronous = true;
  o.integer = true;
  o.balance = "load";
  o.end_on_convergence = false;  // the program runs its steps, then stop()
  o.min_balancing_period = 0.001;
  o.progress_thread = progress == "thread";
  hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, cells_moved);
  for (long c = b.lo; c < b.hi(); ++c) lb.add(static_cast<std::uint64_t>(c));
  lb.start();
  std::vector<double> next;
  for (long s = 0; s < steps; ++s) {
    double from_left = kLeftBoundary, from_right = kRightBoundary;
    double mine_left = b.u.front(), mine_right = b.u.back();
    MPI_Sendrecv(&mine_left, 1, MPI_DOUBLE, left, 0, &from_right, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&mine_right, 1, MPI_DOUBLE, right, 1, &from_left, 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (left == MPI_PROC_NULL) from_left = kLeftBoundary;
    if (right == MPI_PROC_NULL) from_right = kRightBoundary;
    next.assign(b.u.size(), 0.0);
    for (std::size_t i = 0; i < b.u.size(); ++i)
      next[i] = step(i == 0 ? from_left : b.u[i - 1], b.u[i], i + 1 == b.u.size() ? from_right : b.u[i + 1]);
    std::copy(next.begin(), next.end(), b.u.begin());
    std::this_thread::sleep_for(std::chrono::microseconds(2 * b.u.size()));  // the cells' cost, emulated
    lb.iteration_done();
    if (lb.size() != b.u.size()) fail(rank, "the runtime and the block disagree on the cell count");
  }
  lb.stop();

  // The field on rank 0, against one rank's computation of the same steps.
  int n = static_cast<int>(b.u.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  std::vector<long> los(static_cast<std::size_t>(size));
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&b.lo, 1, MPI_LONG, los.data(), 1, MPI_LONG, 0, MPI_COMM_WORLD);
  for (int r = 0; rank == 0 && r < size; ++r) displs[static_cast<std::size_t>(r)] = static_cast<int>(los[static_cast<std::size_t>(r)]);
  std::vector<double> mine(b.u.begin(), b.u.end()), field(rank == 0 ? static_cast<std::size_t>(cells) : 0);
  MPI_Gatherv(mine.data(), n, MPI_DOUBLE, field.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const double moved = lb.metrics().data_transfer_amount * static_cast<double>(cells);
  int code = 0;
  if (rank == 0) {
    long covered = 0;
    for (int r = 0; r < size; ++r) {
      if (los[static_cast<std::size_t>(r)] != covered) fail(0, "blocks are not contiguous in rank order");
      covered += counts[static_cast<std::size_t>(r)];
    }
    if (covered != cells) fail(0, "cells lost or duplicated");
    std::vector<double> u(static_cast<std::size_t>(cells), 0.0), v(u.size());
    for (long s = 0; s < steps; ++s) {
      for (std::size_t i = 0; i < u.size(); ++i)
        v[i] = step(i == 0 ? kLeftBoundary : u[i - 1], u[i], i + 1 == u.size() ? kRightBoundary : u[i + 1]);
      u.swap(v);
    }
    if (u != field) code = 1;
    std::printf("heat-blocks: %ld cells, %ld steps on %d ranks, %.0f cells moved, final blocks:", cells, steps, size,
                moved);
    for (int r = 0; r < size; ++r) std::printf(" %d", counts[static_cast<std::size_t>(r)]);
    std::printf("; field %s the single-rank one\n", code == 0 ? "equals" : "DIFFERS FROM");
    if (moved == 0) code = 1;
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}
