#include "hetlb/mpi/distribution.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

std::string host_name() {
  if (const char* forced = std::getenv("HETLB_MPI_HOST"); forced != nullptr && *forced != '\0') return forced;
  char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int length = 0;
  if (MPI_Get_processor_name(name, &length) != MPI_SUCCESS) return "";
  return std::string(name, static_cast<std::size_t>(std::max(0, length)));
}

namespace {

// The host a processor names: its name when that is a rank's host, else its name without a "-<j>"
// suffix (a `count` entry's processors), else its name.
std::string host_of(const std::string& name, const std::set<std::string>& hosts) {
  if (hosts.count(name)) return name;
  const std::size_t dash = name.rfind('-');
  if (dash != std::string::npos && dash + 1 < name.size() &&
      std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dash) + 1, name.end(), [](unsigned char c) { return std::isdigit(c); }))
    return name.substr(0, dash);
  return name;
}

// proc_of_rank[k]: the processor that runs on rank k, or the one-line reason why there is none.
std::string bind_processors(const Platform& platform, const std::vector<std::string>& hosts, Binding binding,
                 const std::string& source, std::vector<std::size_t>& proc_of_rank) {
  const std::set<std::string> host_set(hosts.begin(), hosts.end());
  std::vector<std::string> named;  // the host each processor names
  for (const Processor& p : platform.processors) named.push_back(host_of(p.name, host_set));
  proc_of_rank.resize(hosts.size());
  if (binding == Binding::Position) {
    for (std::size_t k = 0; k < hosts.size(); ++k) proc_of_rank[k] = k;
    // The file names the ranks' hosts (every processor a host of the run): then it must be in rank order.
    const bool names_hosts = std::all_of(named.begin(), named.end(), [&](const std::string& h) { return host_set.count(h) > 0; });
    for (std::size_t k = 0; names_hosts && k < hosts.size(); ++k)
      if (named[k] != hosts[k])
        return fmt::format("{}: processor {} ({}) names host {}, but rank {} runs on {}: the file's order is not the "
                           "ranks' (reorder it, or bind by host name: HETLB_MPI_BIND_HOST)",
                           source, k, platform.processors[k].name, named[k], k, hosts[k]);
    return "";
  }
  std::map<std::string, std::vector<std::size_t>> procs, ranks;  // per host, in file and rank order
  for (std::size_t i = 0; i < named.size(); ++i) procs[named[i]].push_back(i);
  for (std::size_t k = 0; k < hosts.size(); ++k) ranks[hosts[k]].push_back(k);
  for (const auto& [host, on] : ranks)
    if (procs[host].size() != on.size())
      return fmt::format("{}: host {} runs {} rank(s) but {} processor(s) of the file name it (binding by host name)",
                         source, host, on.size(), procs[host].size());
  for (const auto& [host, list] : procs)
    if (!ranks.count(host))
      return fmt::format("{}: processor {} names host {}, where no rank runs (binding by host name; ranks run on {})",
                         source, platform.processors[list.front()].name, host, fmt::join(host_set, ", "));
  for (const auto& [host, on] : ranks)
    for (std::size_t j = 0; j < on.size(); ++j) proc_of_rank[on[j]] = procs[host][j];
  return "";
}

struct Verdict {
  int status = 0;
  std::string message;
  std::vector<int> counts;        // rank order
  std::vector<int> send_order;    // ranks
  std::vector<int> gather_order;  // ranks
  double makespan = 0, gather = 0;
  std::vector<double> compute;  // rank order
  std::vector<int> displs;      // rank order (weighted plans: prefix sums in send order)
  std::vector<std::int64_t> permutation;  // the any layout: item at each position of the blocks
  Platform platform;            // processor k on rank k
};

// What a weighted plan adds to plan(): the root's weights and layout.
struct WeightedRequest {
  const std::vector<double>* work = nullptr;
  scatter::Layout layout = scatter::Layout::Contiguous;
  int refusal = 0;  // the root's arguments refused before planning (C entry point): status and reason
  std::string reason;
};

// The root's work: read the platform, plan, check the counts fit in int, choose the gather order.
Verdict decide(const std::function<Platform()>& load, const std::string& source, std::int64_t n, int root,
               int size, scatter::Request request, const std::vector<std::string>& hosts, Binding binding,
               const WeightedRequest& weighted) {
  Verdict v;
  auto fail = [&](int status, std::string message) {
    v.status = status;
    v.message = std::move(message);
    return v;
  };
  if (weighted.refusal) return fail(weighted.refusal, weighted.reason);
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
  std::vector<std::size_t> proc_of_rank;
  if (std::string why = bind_processors(platform, hosts, binding, source, proc_of_rank); !why.empty())
    return fail(HETLB_MPI_E_PLATFORM, std::move(why));
  Platform ordered = platform;  // processor k runs on rank k from here on
  for (std::size_t k = 0; k < proc_of_rank.size(); ++k) ordered.processors[k] = platform.processors[proc_of_rank[k]];
  ordered.root = static_cast<std::size_t>(root);
  platform = std::move(ordered);
  request.items = n;
  request.root = platform.processors[static_cast<std::size_t>(root)].name;
  scatter::Result result;
  std::vector<std::size_t> owner;  // the any layout: each item's position in send order
  try {
    if (weighted.work) {
      scatter::WeightedItems items;
      items.work = *weighted.work;
      scatter::WeightedResult w = scatter::plan_scatter_weighted(platform, request, items, weighted.layout);
      result = std::move(w.result);
      if (weighted.layout == scatter::Layout::Any) owner = std::move(w.weighted.owner);
    } else {
      result = scatter::plan_scatter(platform, request);
    }
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
  // Blocks in rank order, or in send order for weighted plans (their ranges follow the send order).
  v.displs.assign(static_cast<std::size_t>(size), 0);
  std::vector<int> block_order(v.send_order);
  if (!weighted.work) std::sort(block_order.begin(), block_order.end());
  std::int64_t displ = 0;
  for (int r : block_order) {
    if (displ > INT_MAX)
      return fail(HETLB_MPI_E_COUNT,
                  fmt::format("n = {}: rank {}'s displacement {} is above INT_MAX = {} (Open MPI 4.1 has no "
                              "large-count MPI_Scatterv_c); split the data into several scatters",
                              n, r, displ, INT_MAX));
    v.displs[static_cast<std::size_t>(r)] = static_cast<int>(displ);
    displ += v.counts[static_cast<std::size_t>(r)];
  }
  if (!owner.empty()) {  // items grouped by send position, each group in item order
    std::vector<std::int64_t> next(result.problem.size(), 0);
    for (std::size_t i = 0; i < result.problem.size(); ++i)
      next[i] = v.displs[result.problem.platform_index[i]];
    v.permutation.assign(owner.size(), 0);
    for (std::size_t k = 0; k < owner.size(); ++k)
      v.permutation[static_cast<std::size_t>(next[owner[k]]++)] = static_cast<std::int64_t>(k);
  }
  std::vector<double> finish;
  for (const scatter::ShareTiming& s : result.schedule.shares) finish.push_back(s.finish);
  const GatherChoice g = choose_gather_order(result.problem, result.plan.items, finish);
  for (std::size_t i : g.order) v.gather_order.push_back(v.send_order[i]);
  v.makespan = result.plan.makespan;
  v.gather = g.completion;
  for (int r = 0; r < size; ++r)
    v.compute.push_back(platform.processors[static_cast<std::size_t>(r)].compute(v.counts[static_cast<std::size_t>(r)]));
  v.platform = std::move(platform);
  return v;
}

Distribution plan(const std::function<Platform()>& load, const std::string& source, std::int64_t n, int root,
                  MPI_Comm comm, const scatter::Request& request, Binding binding,
                  const WeightedRequest& weighted = {}) {
  using detail::check_mpi;
  if (comm == MPI_COMM_NULL) throw Error(HETLB_MPI_E_COMM, "comm = MPI_COMM_NULL: expected a communicator");
  int rank = 0, size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size", comm);
  // The root must be the same everywhere and a rank of comm; decided identically on every rank.
  const int bound = static_cast<int>(binding);
  int roots[4] = {root, -root, bound, -bound}, extremes[4] = {0, 0, 0, 0};
  check_mpi(MPI_Allreduce(roots, extremes, 4, MPI_INT, MPI_MAX, comm), "MPI_Allreduce", comm);
  if (extremes[2] != -extremes[3] || bound < HETLB_MPI_BIND_POSITION || bound > HETLB_MPI_BIND_HOST)
    throw Error(HETLB_MPI_E_ARG,
                extremes[2] != -extremes[3]
                    ? fmt::format("binding differs between ranks (from {} to {}): expected the same on every rank", -extremes[3], extremes[2])
                    : fmt::format("binding = {}: expected HETLB_MPI_BIND_POSITION (0) or HETLB_MPI_BIND_HOST (1)", bound),
                rank == 0);
  if (extremes[0] != -extremes[1])
    throw Error(HETLB_MPI_E_ROOT, fmt::format("root differs between ranks (from {} to {}): expected the same root on every rank",
                                              -extremes[1], extremes[0]), rank == 0);
  if (root < 0 || root >= size)
    throw Error(HETLB_MPI_E_ROOT, fmt::format("root = {}: expected a rank in [0, {}) of the communicator", root, size),
                rank == 0);

  // Every rank's host, at the root (the binding, and the order check of a file naming hosts).
  std::vector<char> names(rank == root ? static_cast<std::size_t>(size) * (MPI_MAX_PROCESSOR_NAME + 1) : 1);
  std::string mine = host_name();
  mine.resize(MPI_MAX_PROCESSOR_NAME + 1, '\0');
  mine.back() = '\0';
  check_mpi(MPI_Gather(mine.data(), MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME + 1,
                       MPI_CHAR, root, comm),
            "MPI_Gather", comm);
  Verdict v;
  if (rank == root) {
    std::vector<std::string> hosts;
    for (int r = 0; r < size; ++r) hosts.emplace_back(names.data() + static_cast<std::size_t>(r) * (MPI_MAX_PROCESSOR_NAME + 1));
    v = decide(load, source, n, root, size, request, hosts, binding, weighted);
  }
  detail::agree_from(root, v.status, v.message, comm, root);

  Distribution d;
  d.root = root;
  d.comm = comm;
  d.counts.resize(static_cast<std::size_t>(size));
  d.send_order.resize(static_cast<std::size_t>(size));
  d.gather_order.resize(static_cast<std::size_t>(size));
  d.predicted_compute.resize(static_cast<std::size_t>(size));
  d.displs.resize(static_cast<std::size_t>(size));
  int flags[1] = {weighted.work ? (weighted.layout == scatter::Layout::Any ? HETLB_MPI_LAYOUT_ANY : HETLB_MPI_LAYOUT_CONTIGUOUS)
                                : HETLB_MPI_LAYOUT_COUNTS};
  if (rank == root)
    d.counts = v.counts, d.send_order = v.send_order, d.gather_order = v.gather_order,
    d.predicted_makespan = v.makespan, d.predicted_gather = v.gather, d.predicted_compute = v.compute,
    d.displs = v.displs, d.permutation = std::move(v.permutation), d.platform = std::move(v.platform);
  std::vector<int> ints;  // counts, send order, gather order, displacements and the layout in one message
  for (const auto* part : {&d.counts, &d.send_order, &d.gather_order, &d.displs})
    ints.insert(ints.end(), part->begin(), part->end());
  ints.push_back(flags[0]);
  check_mpi(MPI_Bcast(ints.data(), 4 * size + 1, MPI_INT, root, comm), "MPI_Bcast", comm);
  std::vector<double> predictions = {d.predicted_makespan, d.predicted_gather};
  predictions.insert(predictions.end(), d.predicted_compute.begin(), d.predicted_compute.end());
  check_mpi(MPI_Bcast(predictions.data(), size + 2, MPI_DOUBLE, root, comm), "MPI_Bcast", comm);
  d.predicted_compute.assign(predictions.begin() + 2, predictions.end());
  const auto s = static_cast<std::ptrdiff_t>(size);
  d.counts.assign(ints.begin(), ints.begin() + s);
  d.send_order.assign(ints.begin() + s, ints.begin() + 2 * s);
  d.gather_order.assign(ints.begin() + 2 * s, ints.begin() + 3 * s);
  d.displs.assign(ints.begin() + 3 * s, ints.begin() + 4 * s);  // checked by the root: each fits in int
  d.layout = ints.back();
  if (rank == root && weighted.work) d.weights = *weighted.work;
  d.predicted_makespan = predictions[0];
  d.predicted_gather = predictions[1];
  const auto me = static_cast<std::size_t>(rank);
  d.item_ids.resize(static_cast<std::size_t>(d.counts[me]));
  if (d.layout == HETLB_MPI_LAYOUT_ANY) {  // each rank learns which items it holds
    check_mpi(MPI_Scatterv(d.permutation.data(), d.counts.data(), d.displs.data(), MPI_INT64_T, d.item_ids.data(),
                           d.counts[me], MPI_INT64_T, root, comm),
              "MPI_Scatterv", comm);
  } else {
    for (std::size_t k = 0; k < d.item_ids.size(); ++k) d.item_ids[k] = d.displs[me] + static_cast<std::int64_t>(k);
  }
  return d;
}

}  // namespace

Distribution plan_distribution(const Platform& platform, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request, Binding binding) {
  return plan([&] { return platform; }, platform.name.empty() ? "platform" : platform.name, n, root, comm, request,
              binding);
}

Distribution plan_distribution(const std::string& platform_path, std::int64_t n, int root, MPI_Comm comm,
                               scatter::Request request, Binding binding) {
  auto load = [&] {
    std::error_code ec;
    if (std::filesystem::is_directory(platform_path, ec))
      throw hetlb::Error(fmt::format("{}: is a directory, expected a platform JSON file", platform_path));
    return io::load_platform_file(platform_path);
  };
  return plan(load, platform_path, n, root, comm, request, binding);
}

Distribution plan_distribution_weighted(const Platform& platform, const std::vector<double>& weights,
                                        scatter::Layout layout, int root, MPI_Comm comm, scatter::Request request,
                                        Binding binding) {
  return plan([&] { return platform; }, platform.name.empty() ? "platform" : platform.name,
              static_cast<std::int64_t>(weights.size()), root, comm, request, binding, WeightedRequest{&weights, layout, 0, ""});
}

Distribution plan_distribution_weighted(const std::string& platform_path, const std::vector<double>& weights,
                                        scatter::Layout layout, int root, MPI_Comm comm, scatter::Request request,
                                        Binding binding) {
  auto load = [&] {
    std::error_code ec;
    if (std::filesystem::is_directory(platform_path, ec))
      throw hetlb::Error(fmt::format("{}: is a directory, expected a platform JSON file", platform_path));
    return io::load_platform_file(platform_path);
  };
  return plan(load, platform_path, static_cast<std::int64_t>(weights.size()), root, comm, request, binding,
              WeightedRequest{&weights, layout, 0, ""});
}

namespace detail {

Distribution plan_weighted_c(const std::string& platform_path, const double* weights, long long n, int layout, int root,
                             MPI_Comm comm) {
  std::vector<double> work;
  WeightedRequest w{&work, layout == HETLB_MPI_LAYOUT_ANY ? scatter::Layout::Any : scatter::Layout::Contiguous, 0, ""};
  if (n <= 0)
    w.refusal = HETLB_MPI_E_COUNT, w.reason = fmt::format("n = {} on the root: expected a positive number of items", n);
  else if (weights == nullptr)
    w.refusal = HETLB_MPI_E_BUFFER, w.reason = fmt::format("weights = NULL on the root: expected {} weights", n);
  else if (layout != HETLB_MPI_LAYOUT_CONTIGUOUS && layout != HETLB_MPI_LAYOUT_ANY)
    w.refusal = HETLB_MPI_E_ARG,
    w.reason = fmt::format("layout = {}: expected HETLB_MPI_LAYOUT_CONTIGUOUS (1) or HETLB_MPI_LAYOUT_ANY (2)", layout);
  else
    work.assign(weights, weights + n);
  auto load = [&] {
    std::error_code ec;
    if (std::filesystem::is_directory(platform_path, ec))
      throw hetlb::Error(fmt::format("{}: is a directory, expected a platform JSON file", platform_path));
    return io::load_platform_file(platform_path);
  };
  return plan(load, platform_path, std::max<long long>(n, 1), root, comm, {}, Binding::Position, w);
}

}  // namespace detail

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
