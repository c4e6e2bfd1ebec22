// A platform from measured costs (hetlb_mpi_plan_create_measured): each rank's own seconds per item
// for Tcomp (linear), and affine links Tcomm(i, x) = latency + per_item x timed by the root with short
// messages, RR-4770's cost model (Section 3.1) measured in place instead of read from a file.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "collective_status.hpp"
#include "hetlb/mpi/distribution.hpp"

namespace hetlb::mpi {

namespace {

constexpr int kProbeTag = 4772;   // the probes, on the plan's own communicator
constexpr int kRepeats = 5;  // per message size; the fastest one counts (other tenants only add time)

// Seconds for `bytes` from the root to `peer` and a zero-byte acknowledgement back (root side), or the
// peer's side of it; the minimum over kRepeats.
double probe(std::vector<char>& buffer, int bytes, int peer, bool root, MPI_Comm comm) {
  using detail::check_mpi;
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kRepeats; ++i) {
    if (root) {
      const double t0 = MPI_Wtime();
      check_mpi(MPI_Send(buffer.data(), bytes, MPI_BYTE, peer, kProbeTag, comm), "MPI_Send", comm);
      check_mpi(MPI_Recv(nullptr, 0, MPI_BYTE, peer, kProbeTag, comm, MPI_STATUS_IGNORE), "MPI_Recv", comm);
      best = std::min(best, MPI_Wtime() - t0);
    } else {
      check_mpi(MPI_Recv(buffer.data(), bytes, MPI_BYTE, peer, kProbeTag, comm, MPI_STATUS_IGNORE), "MPI_Recv", comm);
      check_mpi(MPI_Send(nullptr, 0, MPI_BYTE, peer, kProbeTag, comm), "MPI_Send", comm);
    }
  }
  return best;
}

}  // namespace

Platform measured_platform(double seconds_per_item, int item_bytes, int root, MPI_Comm comm) {
  using detail::check_mpi;
  int rank = 0, size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  int roots[2] = {root, -root}, extremes[2] = {0, 0};
  check_mpi(MPI_Allreduce(roots, extremes, 2, MPI_INT, MPI_MAX, comm), "MPI_Allreduce", comm);
  if (extremes[0] != -extremes[1])
    throw Error(HETLB_MPI_E_ROOT, fmt::format("root differs between ranks (from {} to {}): expected the same root on every rank",
                                              -extremes[1], extremes[0]), rank == 0);
  if (root < 0 || root >= size)
    throw Error(HETLB_MPI_E_ROOT, fmt::format("root = {}: expected a rank in [0, {}) of the communicator", root, size),
                rank == 0);
  const bool bad_cost = !(seconds_per_item > 0) || !std::isfinite(seconds_per_item);
  detail::agree_all(bad_cost ? HETLB_MPI_E_ARG : 0,
                    fmt::format("rank {}: seconds_per_item = {}: expected a positive, finite time per item", rank,
                                seconds_per_item),
                    comm, root);
  if (rank == root && item_bytes < 0) item_bytes = -1;  // refused below, on every rank
  check_mpi(MPI_Bcast(&item_bytes, 1, MPI_INT, root, comm), "MPI_Bcast", comm);
  if (item_bytes < 0)
    throw Error(HETLB_MPI_E_ARG, "item_bytes < 0 on the root: expected the bytes per item on the wire (0: free links)",
                rank == root);

  std::vector<double> costs(static_cast<std::size_t>(size));
  check_mpi(MPI_Gather(&seconds_per_item, 1, MPI_DOUBLE, costs.data(), 1, MPI_DOUBLE, root, comm), "MPI_Gather", comm);

  // Links: an empty message gives twice the latency (there and back), a large one the per-byte cost.
  const int large = item_bytes == 0 ? 0 : static_cast<int>(std::clamp<long long>(16LL * item_bytes, 64 << 10, 1 << 20));
  std::vector<char> buffer(static_cast<std::size_t>(std::max(large, 1)));
  std::vector<CostFunction> links(static_cast<std::size_t>(size));
  for (int peer = 0; peer < size && large > 0; ++peer) {
    if (peer == root) continue;
    if (rank != root && rank != peer) continue;
    const double empty = probe(buffer, 0, rank == root ? peer : root, rank == root, comm);
    const double full = probe(buffer, large, rank == root ? peer : root, rank == root, comm);
    if (rank == root) {
      const double latency = empty / 2;
      const double per_byte = std::max(0.0, full - empty) / large;
      links[static_cast<std::size_t>(peer)] = CostFunction::affine(latency, per_byte * item_bytes);
    }
  }

  Platform platform;
  if (rank != root) return platform;
  platform.name = "measured";
  platform.root = static_cast<std::size_t>(root);
  for (int r = 0; r < size; ++r) {
    Processor p;
    p.name = fmt::format("rank{}", r);
    p.compute = CostFunction::linear(costs[static_cast<std::size_t>(r)]);
    p.comm = links[static_cast<std::size_t>(r)];
    platform.processors.push_back(std::move(p));
  }
  return platform;
}

}  // namespace hetlb::mpi
