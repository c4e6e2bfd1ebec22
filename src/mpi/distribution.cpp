#include "hetlb/mpi/distribution.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>
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

GatherChoice choose_gather_order(const scatter::Problem& problem, const std::vector<Count>& items,
                                 const std::vector<double>& finish) {
  // Single port into the root: a result leaves at its finishing date T_i (equation 1) and occupies the
  // root's link for comm[i](n_i); the gather completes when the last one is in.
  auto completion = [&](const std::vector<std::size_t>& order) {
    double t = 0;
    for (std::size_t i : order)
      if (items[i] > 0) t = std::max(t, finish[i]) + problem.comm[i](items[i]);
    return t;
  };
  GatherChoice best;
  for (std::size_t i = 0; i < problem.size(); ++i) best.order.push_back(i);
  best.completion = completion(best.order);
  std::vector<std::size_t> reverse(best.order.rbegin(), best.order.rend());
  if (const double c = completion(reverse); c < best.completion) best = {reverse, c};
  return best;
}

namespace {

struct Verdict {
  int status = 0;
  std::string message;
  std::vector<int> counts;        // rank order
  std::vector<int> send_order;    // ranks
  std::vector<int> gather_order;  // ranks
  double makespan = 0, gather = 0;
};

// The root's work: read the platform, plan, check the counts fit in int, choose the gather order.
Verdict decide(const std::function<Platform()>& load, const std::string& source, std::int64_t n, int root,
               int size, scatter::Request request) {
  Verdict v;
  auto fail = [&](int status, std::string message) {
    v.status = status;
    v.message = std::move(message);
    return v;
  };
  if (n <= 0) return fail(HETLB_MPI_E_COUNT, fmt::format("n = {} on the root: expected a positive number of items", n));
  Platform platform;
  try {
    platform = load();
  } catch (const std::exception& e) {
    return fail(HETLB_MPI_E_PLATFORM, e.what());
  }
  if (platform.processors.size() != static_cast<std::size_t>(size))
    return fail(HETLB_MPI_E_SIZE,
                fmt::format("{}: {} processors after count expansion, but the communicator has {} ranks "
                            "(processor k runs on rank k)",
                            source, platform.processors.size(), size));
  request.items = n;
  request.root = platform.processors[static_cast<std::size_t>(root)].name;
  scatter::Result result;
  try {
    result = scatter::plan_scatter(platform, request);
  } catch (const std::exception& e) {
    return fail(HETLB_MPI_E_PLATFORM, fmt::format("{}: {}", source, e.what()));
  }
  v.counts.assign(static_cast<std::size_t>(size), 0);
  for (std::size_t i = 0; i < result.problem.size(); ++i) {
    const std::size_t rank = result.problem.platform_index[i];
    const Count c = result.plan.items[i];
    if (c > INT_MAX)
      return fail(HETLB_MPI_E_COUNT,
                  fmt::format("n = {}: rank {} would receive {} items, above INT_MAX = {} (Open MPI 4.1 has no "
                              "large-count MPI_Scatterv_c); split the data into several scatters",
                              n, rank, c, INT_MAX));
    v.counts[rank] = static_cast<int>(c);
    v.send_order.push_back(static_cast<int>(rank));
  }
  std::int64_t displ = 0;
  for (int r = 0; r < size; ++r) {
    if (displ > INT_MAX)
      return fail(HETLB_MPI_E_COUNT,
                  fmt::format("n = {}: rank {}'s displacement {} is above INT_MAX = {} (Open MPI 4.1 has no "
                              "large-count MPI_Scatterv_c); split the data into several scatters",
                              n, r, displ, INT_MAX));
    displ += v.counts[static_cast<std::size_t>(r)];
  }
  std::vector<double> finish;
  for (const scatter::ShareTiming& s : result.schedule.shares) finish.push_back(s.finish);
  const GatherChoice g = choose_gather_order(result.problem, result.plan.items, finish);
  for (std::size_t i : g.order) v.gather_order.push_back(v.send_order[i]);
  v.makespan = result.plan.makespan;
  v.gather = g.completion;
  return v;
}

Distribution plan(const std::function<Platform()>& load, const std::string& source, std::int64_t n, int root,
                  MPI_Comm comm, const scatter::Request& request) {
  using detail::check_mpi;
  if (comm == MPI_COMM_NULL) throw Error(HETLB_MPI_E_COMM, "comm = MPI_COMM_NULL: expected a communicator");
  int rank = 0, size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  // The root must be the same everywhere and a rank of comm; decided identically on every rank.
  int roots[2] = {root, -root}, extremes[2] = {0, 0};
  check_mpi(MPI_Allreduce(roots, extremes, 2, MPI_INT, MPI_MAX, comm), "MPI_Allreduce", comm);
  if (extremes[0] != -extremes[1])
    throw Error(HETLB_MPI_E_ROOT, fmt::format("root differs between ranks (from {} to {}): expected the same root on every rank",
                                              -extremes[1], extremes[0]), rank == 0);
  if (root < 0 || root >= size)
    throw Error(HETLB_MPI_E_ROOT, fmt::format("root = {}: expected a rank in [0, {}) of the communicator", root, size),
                rank == 0);

  Verdict v;
  if (rank == root) v = decide(load, source, n, root, size, request);
  detail::agree_from(root, v.status, v.message, comm, root);

  Distribution d;
  d.root = root;
  d.comm = comm;
  d.counts.resize(static_cast<std::size_t>(size));
  d.send_order.resize(static_cast<std::size_t>(size));
  d.gather_order.resize(static_cast<std::size_t>(size));
  if (rank == root)
    d.counts = v.counts, d.send_order = v.send_order, d.gather_order = v.gather_order,
    d.predicted_makespan = v.makespan, d.predicted_gather = v.gather;
  std::vector<int> ints;  // counts, send order, gather order in one message
  for (const auto* part : {&d.counts, &d.send_order, &d.gather_order}) ints.insert(ints.end(), part->begin(), part->end());
  check_mpi(MPI_Bcast(ints.data(), 3 * size, MPI_INT, root, comm), "MPI_Bcast", comm);
  double predictions[2] = {d.predicted_makespan, d.predicted_gather};
  check_mpi(MPI_Bcast(predictions, 2, MPI_DOUBLE, root, comm), "MPI_Bcast", comm);
  const auto s = static_cast<std::ptrdiff_t>(size);
  d.counts.assign(ints.begin(), ints.begin() + s);
  d.send_order.assign(ints.begin() + s, ints.begin() + 2 * s);
  d.gather_order.assign(ints.begin() + 2 * s, ints.end());
  d.predicted_makespan = predictions[0];
  d.predicted_gather = predictions[1];
  d.displs.resize(static_cast<std::size_t>(size));
  std::int64_t displ = 0;  // checked by the root: every displacement fits in int, the total may not
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
  auto load = [&] {
    std::error_code ec;
    if (std::filesystem::is_directory(platform_path, ec))
      throw hetlb::Error(fmt::format("{}: is a directory, expected a platform JSON file", platform_path));
    return io::load_platform_file(platform_path);
  };
  return plan(load, platform_path, n, root, comm, request);
}

MPI_Comm plan_communicator(const Distribution& distribution, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int position = 0;
  for (std::size_t i = 0; i < distribution.send_order.size(); ++i)
    if (distribution.send_order[i] == rank) position = static_cast<int>(i);
  MPI_Comm result = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split(comm, 0, position, &result), "MPI_Comm_split", comm);
  return result;
}

}  // namespace hetlb::mpi
