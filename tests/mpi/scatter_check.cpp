// hetlb-mpi-scatter-check: runs the load-balanced scatter under mpirun and verifies it (ctest driver).
//   --platform F --items N [--root R] [--api cpp|c|scatterv] [--short-buffer RANK]
// Verified on every run (exit 1 on failure): the counts and send order equal the planner's (each rank
// plans on its own), every item is delivered exactly once, to its planned rank, in order, the root sends
// in the planned order (MPI_Send and MPI_Isend intercepted through PMPI), and the plan communicator follows the plan.
// A refused call exits 2 on every rank (rank 0 printed the reason).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/scatter.h"
#include "hetlb/mpi/scatter.hpp"
#include "agreement.hpp"

namespace {

std::vector<int> g_send_destinations;  // what the root passed to MPI_Send, in order

std::int64_t item_value(std::int64_t i) { return i * 1000003 + 17; }

struct Options {
  std::string platform;
  long long items = 0;
  int root = 0;
  std::string api = "cpp";
  int short_buffer = -1;  // this rank declares one item less than its share (bad-input test)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--platform") o.platform = value;
    else if (key == "--items") o.items = std::atoll(value.c_str());
    else if (key == "--root") o.root = std::atoi(value.c_str());
    else if (key == "--api") o.api = value;
    else if (key == "--short-buffer") o.short_buffer = std::atoi(value.c_str());
  }
  return o;
}

int failures = 0;
void expect(bool ok, int rank, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: check failed: %s\n", rank, what.c_str());
  }
}

}  // namespace

// Blocks only: the per-call agreement's exchange between two ranks (src/mpi/agreement.hpp) is not part
// of the send order.
extern "C" int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (tag != hetlb::mpi::detail::Agreement::kTag) g_send_destinations.push_back(dest);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
extern "C" int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  if (tag != hetlb::mpi::detail::Agreement::kTag) g_send_destinations.push_back(dest);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // codes back, no abort from hetlb's errors
  const Options o = parse(argc, argv);

  std::vector<std::int64_t> data;
  const bool small = o.items > 0 && o.items <= 100'000'000;
  if (rank == o.root && small) {
    data.resize(static_cast<std::size_t>(o.items));
    for (std::int64_t i = 0; i < o.items; ++i) data[static_cast<std::size_t>(i)] = item_value(i);
  }

  // The distribution, as every API sees it.
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts), order(counts);
  int status = hetlb_mpi_scatterv_counts(o.platform.c_str(), o.items, o.root, MPI_COMM_WORLD, counts.data(),
                                         displs.data(), order.data());
  if (status != HETLB_MPI_SUCCESS) {
    MPI_Finalize();
    return 2;
  }
  const auto me = static_cast<std::size_t>(rank);
  std::vector<std::int64_t> mine(static_cast<std::size_t>(counts[me]) + 1);  // +1: never a null buffer
  const int capacity = counts[me] - (rank == o.short_buffer ? 1 : 0);
  int count = -1;
  long long offset = -1;
  MPI_Comm plan_comm = MPI_COMM_NULL;
  g_send_destinations.clear();
  if (o.api == "c") {
    status = hetlb_mpi_scatter(data.data(), o.items, MPI_INT64_T, mine.data(), capacity, o.root,
                               o.platform.c_str(), MPI_COMM_WORLD, &count, &offset, &plan_comm);
    if (status != HETLB_MPI_SUCCESS) {
      MPI_Finalize();
      return 2;
    }
  } else if (o.api == "scatterv") {
    MPI_Scatterv(data.data(), counts.data(), displs.data(), MPI_INT64_T, mine.data(), counts[me], MPI_INT64_T,
                 o.root, MPI_COMM_WORLD);
    count = counts[me];
    offset = displs[me];
    g_send_destinations.clear();
  } else {
    try {
      const hetlb::mpi::Distribution d = hetlb::mpi::plan_distribution(o.platform, o.items, o.root, MPI_COMM_WORLD);
      g_send_destinations.clear();
      const hetlb::mpi::Share share = hetlb::mpi::scatter(data.data(), MPI_INT64_T, mine.data(), capacity, d,
                                                          MPI_COMM_WORLD);
      count = share.count;
      offset = share.offset;
      plan_comm = hetlb::mpi::plan_communicator(d, MPI_COMM_WORLD);
    } catch (const hetlb::mpi::Error& e) {
      if (e.reporter()) std::fprintf(stderr, "hetlb_mpi: %s\n", e.what());
      MPI_Finalize();
      return 2;
    }
  }

  // Counts and order equal the planner's, computed independently on every rank.
  hetlb::scatter::Request request;
  const hetlb::Platform platform = hetlb::io::load_platform_file(o.platform);
  request.items = o.items;
  request.root = platform.processors[static_cast<std::size_t>(o.root)].name;
  const hetlb::scatter::Result planned = hetlb::scatter::plan_scatter(platform, request);
  for (std::size_t i = 0; i < planned.problem.size(); ++i) {
    const std::size_t r = planned.problem.platform_index[i];
    expect(order[i] == static_cast<int>(r), rank, "send order position " + std::to_string(i));
    expect(counts[r] == planned.plan.items[i], rank, "count of rank " + std::to_string(r));
  }
  expect(order.back() == o.root, rank, "root served last");

  // This rank's share: its planned count, at its planned offset, the root's items in order.
  expect(count == counts[me], rank, "returned count");
  expect(offset == displs[me], rank, "returned offset");
  for (int j = 0; j < count; ++j)
    if (mine[static_cast<std::size_t>(j)] != item_value(offset + j)) {
      expect(false, rank, "item " + std::to_string(offset + j));
      break;
    }

  // Every item exactly once: the shares, gathered on rank 0, tile [0, n) without overlap.
  long long share[2] = {offset, count};
  std::vector<long long> shares(2 * static_cast<std::size_t>(size));
  MPI_Gather(share, 2, MPI_LONG_LONG, shares.data(), 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::vector<std::pair<long long, long long>> blocks;
    for (int r = 0; r < size; ++r) blocks.emplace_back(shares[2 * r], shares[2 * r + 1]);
    std::sort(blocks.begin(), blocks.end());
    long long next = 0;
    for (const auto& [start, c] : blocks) {
      expect(start == next && c >= 0, rank, "shares tile the items");
      next = start + c;
    }
    expect(next == o.items, rank, "shares cover all " + std::to_string(o.items) + " items");
  }

  // The root served the other ranks in the planned order (ranks with no item are skipped).
  if (rank == o.root && o.api != "scatterv") {
    std::vector<int> expected;
    for (int r : order)
      if (r != o.root && counts[static_cast<std::size_t>(r)] > 0) expected.push_back(r);
    expect(g_send_destinations == expected, rank, "sends in the planned order");
  }

  // The plan communicator: rank i is the i-th served.
  if (plan_comm != MPI_COMM_NULL) {
    int plan_rank = -1;
    MPI_Comm_rank(plan_comm, &plan_rank);
    expect(order[static_cast<std::size_t>(plan_rank)] == rank, rank, "plan communicator order");
    MPI_Comm_free(&plan_comm);
  } else if (o.api != "scatterv") {
    expect(false, rank, "plan communicator returned");
  }

  int total_failures = 0;
  MPI_Allreduce(&failures, &total_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s: %d ranks, %lld items, root %d, api %s\n", total_failures == 0 ? "ok" : "FAILED", size,
                o.items, o.root, o.api.c_str());
  MPI_Finalize();
  return total_failures == 0 ? 0 : 1;
}
