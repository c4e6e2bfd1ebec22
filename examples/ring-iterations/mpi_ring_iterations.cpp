// hetlb-ring-iterations: an iterative application whose load drifts, on the ranks of MPI_COMM_WORLD as a
// homogeneous unidirectional ring (rank i is P_i, its successor rank i+1), redistributed for real with
// hetlb::mpi::redistribute_ring before the iterations the policy chooses (Renard, Robert, Vivien,
// Section 8: when do redistributions pay off?).
//
//   mpirun -np P hetlb-ring-iterations --policy never|every:K|threshold:X|model|optimal --iterations N
//          --drift window|walk --ratio R [--drift-speed V] [--seed S] [--load L] [--work F]
//
// Items are 64-bit ids 0..total-1. The policy decides on the model (hetlb/ring/iterative.hpp, the same
// on every rank: it depends on the loads, not on measured times, so every run makes the same choices);
// the program then holds the items for real: each iteration every rank computes F multiply-adds per
// item it holds and a barrier ends the iteration; the drift moves items between ranks (MPI_Alltoallv,
// the application's own migration); before the chosen iterations the ring plan from the loads held to
// the balanced targets is executed by redistribute_ring. Checked: every rank holds the model's load at
// every iteration, and at the end every id exactly once. Output on rank 0 (JSON); exit 1 (one line,
// every rank agreeing) on a failed check, 2 on a bad option.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/number_text.hpp"
#include "hetlb/mpi/distribution.hpp"
#include "hetlb/mpi/ring_redistribution.hpp"
#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/offline_optimum.hpp"
#include "hetlb/ring/plan.hpp"
#include "hetlb/ring/redistribution_policy.hpp"

namespace {

using namespace hetlb;
using Id = std::int64_t;

struct Options {
  std::string policy, drift;
  std::size_t iterations = 0;
  double ratio = 0, drift_speed = -1, work = 1000;
  std::uint64_t seed = 1;
  Count load = 100;
};

double number(const std::string& option, const char* text, double lo, bool whole = false, double hi = 1e15) {
  const std::optional<double> v = hetlb::number_of(text);
  if (!v || !std::isfinite(*v) || *v < lo || (whole && (*v != std::floor(*v) || *v > hi)))
    throw Error(whole ? fmt::format("{} {}: an integer from {} to {:.0f} expected", option, text, lo, hi)
                      : fmt::format("{} {}: a number >= {} expected", option, text, lo));
  return *v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (a + 1 >= argc) throw Error(fmt::format("{}: a value expected", arg));
    const char* v = argv[++a];
    if (arg == "--policy") o.policy = v;
    else if (arg == "--drift") o.drift = v;
    else if (arg == "--iterations") o.iterations = static_cast<std::size_t>(number(arg, v, 1, true, 1e9));
    else if (arg == "--ratio") o.ratio = number(arg, v, 1e-300);
    else if (arg == "--drift-speed") o.drift_speed = number(arg, v, 1e-300);
    else if (arg == "--seed") o.seed = static_cast<std::uint64_t>(number(arg, v, 0, true));
    else if (arg == "--load") o.load = static_cast<Count>(number(arg, v, 1, true));
    else if (arg == "--work") o.work = number(arg, v, 0);
    else throw Error(fmt::format("unknown option {}", arg));
  }
  if (o.policy.empty() || o.drift.empty() || o.iterations == 0 || o.ratio <= 0)
    throw Error("--policy, --drift, --iterations and --ratio are required");
  if (o.drift != "window" && o.drift != "walk") throw Error(fmt::format("--drift {}: window or walk expected", o.drift));
  if (o.policy != "optimal") (void)ring::make_policy(o.policy);
  return o;
}

// The same application as `hetlb simulate ring-iterations` on a homogeneous ring (costs 1, speeds 1).
struct Application {
  ring::IterativeApp app;
  std::unique_ptr<ring::Drift> drift;
};

Application application(const Options& o, std::size_t n) {
  Application a;
  a.app.ring.loads.assign(n, o.load);
  a.app.ring.succ_cost.assign(n, 1.0);
  a.app.speeds.assign(n, 1.0);
  a.app.compute_cost = o.ratio;
  if (o.drift == "window") {
    const std::size_t width = std::max<std::size_t>(1, n / 8);
    a.app.ring.loads = ring::window_initial_loads(a.app.ring.loads, width, o.load);
    a.drift = ring::window_drift(n, width, o.load, o.drift_speed < 0 ? 0.25 : o.drift_speed);
  } else {
    const double speed = o.drift_speed < 0 ? 0.01 : o.drift_speed;
    a.drift = ring::walk_drift(n, std::max<Count>(1, std::llround(speed * static_cast<double>(o.load))), o.seed);
  }
  a.app.ring.targets = a.app.ring.loads;
  return a;
}

// The drift's items moved for real: losers give their last items to gainers, matched in rank order.
std::vector<Id> migrate(std::vector<Id> mine, const std::vector<Count>& before, const std::vector<Count>& after,
                        int rank, MPI_Comm comm) {
  const std::size_t n = before.size();
  std::vector<int> send(n, 0), recv(n, 0);
  std::size_t g = 0;
  Count gained = 0;
  for (std::size_t l = 0; l < n; ++l) {
    Count give = before[l] - after[l];
    while (give > 0) {
      while (after[g] - before[g] - gained <= 0) ++g, gained = 0;
      const Count k = std::min(give, after[g] - before[g] - gained);
      if (static_cast<int>(l) == rank) send[g] += static_cast<int>(k);
      if (static_cast<int>(g) == rank) recv[l] += static_cast<int>(k);
      give -= k;
      gained += k;
    }
  }
  std::vector<int> sdis(n, 0), rdis(n, 0);
  const int out = std::accumulate(send.begin(), send.end(), 0), in = std::accumulate(recv.begin(), recv.end(), 0);
  for (std::size_t i = 1; i < n; ++i) sdis[i] = sdis[i - 1] + send[i - 1], rdis[i] = rdis[i - 1] + recv[i - 1];
  const std::size_t keep = mine.size() - static_cast<std::size_t>(out);
  std::vector<Id> outgoing(mine.begin() + static_cast<std::ptrdiff_t>(keep), mine.end()), incoming(static_cast<std::size_t>(in));
  MPI_Alltoallv(outgoing.data(), send.data(), sdis.data(), MPI_INT64_T, incoming.data(), recv.data(), rdis.data(),
                MPI_INT64_T, comm);
  mine.resize(keep);
  mine.insert(mine.end(), incoming.begin(), incoming.end());
  return mine;
}

std::vector<std::byte> bytes(const std::vector<Id>& ids) {
  std::vector<std::byte> b(ids.size() * sizeof(Id));
  if (!ids.empty()) std::memcpy(b.data(), ids.data(), b.size());
  return b;
}

std::vector<Id> ids(const std::vector<std::byte>& b) {
  std::vector<Id> v(b.size() / sizeof(Id));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(Id));
  return v;
}

// Every rank's verdict, agreed: the first failing rank's message on every rank.
void agree(const std::string& local, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = local.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int length = static_cast<int>(local.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::string text = local;
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
  throw Error(text);
}

int run(int argc, char** argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::size_t n = static_cast<std::size_t>(size), me = static_cast<std::size_t>(rank);
  Options o;
  try {
    if (size < 2) throw Error(fmt::format("{} rank; a ring of at least 2 ranks expected", size));
    o = parse(argc, argv);  // the same arguments on every rank: the same verdict
  } catch (const Error& e) {
    if (rank == 0) std::cerr << "hetlb-ring-iterations: " << e.what() << "\n";
    return 2;
  }
  Application a = application(o, n);
  const Count total = std::accumulate(a.app.ring.loads.begin(), a.app.ring.loads.end(), Count{0});
  const std::vector<Count> targets = ring::balanced_targets(total, a.app.speeds);

  // Items: P_i starts with the ids following its predecessors' loads.
  Count first = 0;
  for (std::size_t i = 0; i < me; ++i) first += a.app.ring.loads[i];
  std::vector<Id> mine(static_cast<std::size_t>(a.app.ring.loads[me]));
  std::iota(mine.begin(), mine.end(), first);
  std::vector<Count> loads = a.app.ring.loads;
  double compute_seconds = 0, redistribution_seconds = 0, checksum = 0;
  ring::Delta delta;
  // Each iteration for real, as the model runs it (ring::RunOptions::each_iteration): nothing is kept per
  // iteration, so --iterations bounds the time, not the memory.
  ring::RunOptions follow{false, false, false};
  follow.each_iteration = [&](std::size_t t, bool redistributed, const std::vector<Count>& model_loads) {
    if (redistributed) {
      ring::Ring r = a.app.ring;
      r.loads = loads;
      r.targets = targets;
      const ring::Plan plan = ring::plan_redistribution(r, ring::iterative_plan_options(n));
      MPI_Barrier(comm);
      const double start = MPI_Wtime();
      mine = ids(mpi::redistribute_ring(r, plan, bytes(mine), sizeof(Id), comm));
      redistribution_seconds += MPI_Wtime() - start;
      loads = targets;
    }
    agree(static_cast<Count>(mine.size()) == model_loads[me]
              ? ""
              : fmt::format("iteration {}: rank {} holds {} items, the model {}", t, rank, mine.size(), model_loads[me]),
          comm);
    const double start = MPI_Wtime();
    for (Id id : mine) {  // the application's work: F multiply-adds per item
      double x = static_cast<double>(id % 97) * 1e-3;
      for (double k = 0; k < o.work; ++k) x = x * 0.999 + 1e-3;
      checksum += x;
    }
    MPI_Barrier(comm);  // the iteration ends for everybody
    compute_seconds += MPI_Wtime() - start;
    a.drift->delta(t, delta);
    std::vector<Count> after = loads;
    ring::apply_delta(after, delta);
    mine = migrate(std::move(mine), loads, after, rank, comm);
    loads = std::move(after);
  };
  ring::RunResult model;
  if (o.policy == "optimal") {  // decided offline (at most 1,000 iterations), then followed
    const ring::RunResult optimum = ring::offline_optimum(a.app, *a.drift, o.iterations);
    auto fixed = ring::fixed_policy(optimum.redistributed_at);
    model = ring::run_iterations(a.app, *a.drift, *fixed, o.iterations, follow);
  } else {
    auto policy = ring::make_policy(o.policy);
    model = ring::run_iterations(a.app, *a.drift, *policy, o.iterations, follow);
  }
  // Every id exactly once.
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(n), displs(n, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  for (std::size_t i = 1; i < n; ++i) displs[i] = displs[i - 1] + counts[i - 1];
  std::vector<Id> all(rank == 0 ? static_cast<std::size_t>(total) : 0);
  std::string verdict;
  if (rank == 0 && displs[n - 1] + counts[n - 1] != total)
    verdict = fmt::format("the ranks hold {} items at the end, {} expected", displs[n - 1] + counts[n - 1], total);
  agree(verdict, comm);
  MPI_Gatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, 0, comm);
  if (rank == 0) {
    std::sort(all.begin(), all.end());
    for (std::size_t k = 0; k < all.size() && verdict.empty(); ++k)
      if (all[k] != static_cast<Id>(k)) verdict = fmt::format("item id {} is missing or held twice", k);
  }
  agree(verdict, comm);
  double seconds[2] = {compute_seconds, redistribution_seconds}, most[2] = {0, 0}, sum = 0;
  MPI_Reduce(seconds, most, 2, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(&checksum, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  if (rank == 0)
    std::cout << fmt::format(
        "{{\n  \"ranks\": {},\n  \"policy\": \"{}\",\n  \"drift\": \"{}\",\n  \"iterations\": {},\n  \"items\": {},\n"
        "  \"redistributions\": {},\n  \"data_moved\": {},\n  \"model_total_time\": {:.17g},\n"
        "  \"items_checked\": true,\n  \"compute_seconds\": {:.6f},\n  \"redistribution_seconds\": {:.6f},\n"
        "  \"checksum\": {:.17g}\n}}\n",
        size, o.policy, o.drift, o.iterations, total, model.redistributions, model.data_moved, model.total_time, most[0],
        most[1], sum);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 1, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    rc = run(argc, argv);
  } catch (const Error& e) {  // every rank's: the model's refusals and the verdicts agreed
    if (rank == 0) std::cerr << "hetlb-ring-iterations: " << e.what() << "\n";
  } catch (const std::exception& e) {
    // One rank's failure (memory, say): the others would wait for it in their next collective.
    std::cerr << "hetlb-ring-iterations: rank " << rank << ": " << e.what() << "; ending the job" << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return rc;
}
