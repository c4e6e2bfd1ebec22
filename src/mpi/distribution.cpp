#include "hetlb/mpi/distribution.hpp"

#include <climits>
#include <functional>

#include <fmt/format.h>

#include "collective_status.hpp"
#include "hetlb/io/platform_json.hpp"

namespace hetlb::mpi {

std::int64_t Distribution::total() const {
  std::int64_t sum = 0;
  for (int c : counts) sum += c;
  return sum;
}

namespace {

struct Verdict {
  int status = HETLB_MPI_SUCCESS;
  std::string message;
  std::vector<int> counts;      // rank order
  std::vector<int> send_order;  // ranks
  double makespan = 0;
};

// Rank 0's work: check the arguments, read the platform, plan, check the counts fit in int.
Verdict decide(const std::function<Platform()>& load, const std::string& source, std::int64_t n, int root,
               int size, scatter::Request request) {
  Verdict v;
  auto fail = [&](int status, std::string message) {
    v.status = status;
    v.message = std::move(message);
    return v;
  };
  if (root < 0 || root >= size)
    return fail(HETLB_MPI_ERR_ROOT, fmt::format("root = {}: expected a rank in [0, {}) of the communicator", root, size));
  if (n <= 0) return fail(HETLB_MPI_ERR_COUNT, fmt::format("n = {}: expected a positive number of items", n));
  Platform platform;
  try {
    platform = load();
  } catch (const std::exception& e) {
    return fail(HETLB_MPI_ERR_PLATFORM, e.what());
  }
  if (platform.processors.size() != static_cast<std::size_t>(size))
    return fail(HETLB_MPI_ERR_SIZE,
                fmt::format("{}: {} processors after count expansion, but the communicator has {} ranks "
                            "(processor k runs on rank k)",
                            source, platform.processors.size(), size));
  request.items = n;
  request.root = platform.processors[static_cast<std::size_t>(root)].name;
  scatter::Result result;
  try {
    result = scatter::plan_scatter(platform, request);
  } catch (const std::exception& e) {
    return fail(HETLB_MPI_ERR_PLATFORM, fmt::format("{}: {}", source, e.what()));
  }
  v.counts.assign(static_cast<std::size_t>(size), 0);
  for (std::size_t i = 0; i < result.problem.size(); ++i) {
    const std::size_t rank = result.problem.platform_index[i];
    const Count c = result.plan.items[i];
    if (c > INT_MAX)
      return fail(HETLB_MPI_ERR_COUNT,
                  fmt::format("n = {}: rank {} would receive {} items, above INT_MAX = {} (Open MPI 4.1 has no "
                              "large-count MPI_Scatterv_c); split the data into several scatters",
                              n, rank, c, INT_MAX));
    v.counts[rank] = static_cast<int>(c);
    v.send_order.push_back(static_cast<int>(rank));
  }
  std::int64_t displ = 0;
  for (int r = 0; r < size; ++r) {
    if (displ > INT_MAX)
      return fail(HETLB_MPI_ERR_COUNT,
                  fmt::format("n = {}: rank {}'s displacement {} is above INT_MAX = {} (Open MPI 4.1 has no "
                              "large-count MPI_Scatterv_c); split the data into several scatters",
                              n, r, displ, INT_MAX));
    displ += v.counts[static_cast<std::size_t>(r)];
  }
  v.makespan = result.plan.makespan;
  return v;
}

Distribution plan(const std::function<Platform()>& load, const std::string& source, std::int64_t n, int root,
                  MPI_Comm comm, const scatter::Request& request) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Verdict v;
  if (rank == 0) v = decide(load, source, n, root, size, request);
  detail::agree_from_rank0(v.status, v.message, comm);

  Distribution d;
  d.root = root;
  d.counts.resize(static_cast<std::size_t>(size));
  d.send_order.resize(static_cast<std::size_t>(size));
  if (rank == 0) d.counts = v.counts, d.send_order = v.send_order, d.predicted_makespan = v.makespan;
  MPI_Bcast(d.counts.data(), size, MPI_INT, 0, comm);
  MPI_Bcast(d.send_order.data(), size, MPI_INT, 0, comm);
  MPI_Bcast(&d.predicted_makespan, 1, MPI_DOUBLE, 0, comm);
  d.displs.resize(static_cast<std::size_t>(size));
  std::int64_t displ = 0;  // checked by rank 0: every displacement fits in int, the total may not
  for (std::size_t r = 0; r < d.counts.size(); ++r) d.displs[r] = static_cast<int>(displ), displ += d.counts[r];
  return d;
}

}  // namespace

Distribution plan_distribution(const Platform& platform, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request) {
  return plan([&] { return platform; }, platform.name.empty() ? "platform" : platform.name, n, root, comm, request);
}

Distribution plan_distribution(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request) {
  return plan([&] { return io::load_platform_file(platform_path); }, platform_path, n, root, comm, request);
}

MPI_Comm plan_communicator(const Distribution& distribution, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int position = 0;
  for (std::size_t i = 0; i < distribution.send_order.size(); ++i)
    if (distribution.send_order[i] == rank) position = static_cast<int>(i);
  MPI_Comm result = MPI_COMM_NULL;
  MPI_Comm_split(comm, 0, position, &result);
  return result;
}

}  // namespace hetlb::mpi
