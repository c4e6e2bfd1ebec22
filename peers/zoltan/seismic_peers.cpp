// hetlb-peers-seismic: the seismic example of RR-4770 (examples/seismic: rays traced through a layered
// Earth) distributed by one policy and measured. Each distribution comes from the library that computes
// it: equal counts by MPI_Scatter / MPI_Scatterv (divmod), Zoltan's BLOCK or RCB partition with part
// sizes from the platform's speeds moved by Zoltan_Migrate (pack/unpack callbacks), hetlb's lp or exact
// plan through hetlb::mpi::Plan in its send order. Processor k of --platform is rank k, rank 0 holds the
// rays; --emulate makes rank k trace each ray round(compute_k / fastest) times. Planning happens before
// the clock; the clock covers distribution and tracing. Rank 0 checks every ray came back exactly once
// (by id) and prints one CSV row: measured makespan beside the model's (hetlb's evaluator, equation 2,
// on the counts actually used, in the order they were sent).
// The SMPI build (HETLB_SMPI: smpirun loads it as a shared library, one simulated flop per ray) has no
// Zoltan: Debian's Zoltan is built against Open MPI. There the Zoltan policies take the counts Zoltan
// computed (--counts, from hetlb-peers-model --counts on the same platform and rays) and send them with
// MPI_Scatterv in rank order, Zoltan's order.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include "hetlb/build_info.hpp"
#include "earth_model.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/plan.hpp"
#include "number_checks.hpp"
#include "policies.hpp"
#include "ray.hpp"
#ifndef HETLB_SMPI
#include "zoltan_partition.hpp"
#endif

namespace {

struct Options {
  std::string policy;
  std::string platform;
  long long rays = 4000;
  unsigned long long seed = 1999;
  int layers = 330;
  bool emulate = false;
  bool header = false;
  bool lose_one = false;
  std::string counts;
  std::string transport = "native";
  double flops_per_ray = 1;
};

int fail_everywhere(int rank, const std::string& message, int code) {
  if (rank == 0) std::fprintf(stderr, "hetlb-peers-seismic: %s\n", message.c_str());
  MPI_Finalize();
  return code;
}

// Rank 0 reads the platform and broadcasts it (as JSON) or the reason it is refused.
std::optional<hetlb::Platform> read_platform(const std::string& path, int rank, int size, std::string& error) {
  std::string text;
  if (rank == 0) try {
      const hetlb::Platform platform = hetlb::io::load_platform_file(path);
      if (platform.processors.size() != static_cast<std::size_t>(size))
        error = path + ": " + std::to_string(platform.processors.size()) + " processors after count expansion, but " +
                std::to_string(size) + " ranks (processor k runs on rank k)";
      else if (platform.root != 0)
        error = path + ": root \"" + platform.processors[platform.root].name + "\": expected the first processor (rank 0 holds the rays)";
      else
        text = hetlb::io::platform_to_json(platform);
    } catch (const std::exception& e) {
      error = e.what();
    }
  int lengths[2] = {static_cast<int>(text.size()), static_cast<int>(error.size())};
  MPI_Bcast(lengths, 2, MPI_INT, 0, MPI_COMM_WORLD);
  text.resize(static_cast<std::size_t>(lengths[0]));
  error.resize(static_cast<std::size_t>(lengths[1]));
  MPI_Bcast(text.data(), lengths[0], MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Bcast(error.data(), lengths[1], MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!error.empty()) return std::nullopt;
  return hetlb::io::parse_platform_json(text, path);
}

#ifdef HETLB_SMPI
// --counts c0,c1,...: one whole number per rank, summing to the rays (commas: smpirun splits spaces).
std::vector<hetlb::Count> parse_counts(const std::string& text, int size, long long rays) {
  std::vector<hetlb::Count> counts;
  std::string spaced = text;
  for (char& ch : spaced)
    if (ch == ',') ch = ' ';
  std::istringstream in(spaced);
  long long c = 0;
  while (in >> c) {
    if (c < 0) throw std::invalid_argument("--counts: " + std::to_string(c) + ": expected a whole number of items");
    counts.push_back(c);
  }
  if (!in.eof()) throw std::invalid_argument("--counts \"" + text + "\": expected whole numbers separated by commas");
  long long total = 0;
  for (hetlb::Count k : counts) total += k;
  if (counts.size() != static_cast<std::size_t>(size) || total != rays)
    throw std::invalid_argument("--counts: " + std::to_string(counts.size()) + " counts summing to " + std::to_string(total) +
                                ": expected " + std::to_string(size) + " (one per rank) summing to --rays " + std::to_string(rays));
  return counts;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-peers-seismic")) return 0;  // before MPI or any parsing
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  Options o;
  CLI::App app{"The seismic example distributed by equal counts, Zoltan or hetlb, measured"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.add_option("--policy", o.policy, "mpi-scatter, divmod, zoltan-block, zoltan-rcb, hetlb-lp or hetlb-exact")->required();
  app.add_option("--platform", o.platform, "hetlb platform JSON, processor k = rank k, root first")->required();
  app.add_option("--rays", o.rays, "number of rays")->check(CLI::Range(1LL, 100'000'000LL));
  app.add_option("--seed", o.seed, "seed of the rays")
      ->check(hetlb::cli::whole_number<unsigned long long>(0, std::numeric_limits<unsigned long long>::max()));
  app.add_option("--layers", o.layers, "layers of the velocity model")->check(CLI::Range(1, 100000));
  app.add_option("--transport", o.transport,
                 "native (the policy's own: MPI_Scatter, MPI_Scatterv, Zoltan_Migrate, hetlb's plan), scatterv (the "
                 "policy's counts by MPI_Scatterv, rank order) or ordered (one send at a time in the policy's order)")
      ->check(CLI::IsMember({"native", "scatterv", "ordered"}));
  app.add_flag("--emulate", o.emulate, "trace each ray compute_r / fastest times on rank r");
  app.add_flag("--header", o.header, "print the CSV header first");
#ifdef HETLB_SMPI
  app.add_option("--flops-per-ray", o.flops_per_ray, "simulated work of one ray (times the slowdown with --emulate)")
      ->check(CLI::PositiveNumber);
  app.add_option("--counts", o.counts, "SMPI build, Zoltan policies: the items of each rank as Zoltan computed them, comma-separated");
#endif
  app.add_flag("--lose-one", o.lose_one, "testing: the last rank drops one ray, so the conservation check must fail");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) app.exit(e);
    MPI_Finalize();
    return 0;
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::fprintf(stderr, "hetlb-peers-seismic: %s (see hetlb-peers-seismic --help)\n", e.what());
    MPI_Finalize();
    return 2;
  }
  peers::Policy policy{};
  try {  // the same verdict on every rank: every rank parses the same arguments
    policy = peers::parse_policy(o.policy);
  } catch (const std::exception& e) {
    return fail_everywhere(rank, std::string("--policy: ") + e.what(), 2);
  }
  std::string error;
  const std::optional<hetlb::Platform> platform = read_platform(o.platform, rank, size, error);
  if (!platform) return fail_everywhere(rank, error, 2);

  int slowdown = 1;
  std::vector<int> slowdowns(static_cast<std::size_t>(size), 1);
  if (o.emulate) {
    const std::vector<double> s = peers::speeds(*platform);
    const double fastest = *std::max_element(s.begin(), s.end());
    for (int r = 0; r < size; ++r) slowdowns[static_cast<std::size_t>(r)] = std::max(1, static_cast<int>(std::lround(fastest / s[static_cast<std::size_t>(r)])));
    slowdown = slowdowns[static_cast<std::size_t>(rank)];
  }

  const std::vector<seismic::Layer> model = seismic::earth_model(o.layers);
  const MPI_Datatype ray_type = seismic::ray_datatype(), traced_type = seismic::traced_datatype();
  std::vector<seismic::Ray> rays;
  if (rank == 0) rays = seismic::generate_rays(o.rays, o.seed, model);
  const bool by_zoltan = policy == peers::Policy::ZoltanBlock || policy == peers::Policy::ZoltanRcb;
#ifndef HETLB_SMPI
  peers::Objects objects;
  for (const seismic::Ray& r : rays) {
    objects.ids.push_back(static_cast<ZOLTAN_ID_TYPE>(r.id));
    objects.xy.push_back(r.source_depth);
    objects.xy.push_back(r.offset);
  }
#endif

  // Planning, before the clock.
  const double plan_start = MPI_Wtime();
  std::vector<hetlb::Count> counts;  // equal-count policies, rank order
  std::vector<std::size_t> send_order = hetlb::scatter::send_order(*platform, 0, hetlb::scatter::OrderPolicy::Given);
#ifndef HETLB_SMPI
  std::optional<peers::Partitioner> zoltan;
#endif
  std::optional<hetlb::mpi::Plan> plan;
  int failed = 0;
  try {
    if (policy == peers::Policy::MpiScatter || policy == peers::Policy::Divmod) {
      counts = peers::equal_counts(policy, static_cast<std::size_t>(size), 0, o.rays);
    } else if (by_zoltan) {
#ifndef HETLB_SMPI
      zoltan.emplace(MPI_COMM_WORLD, policy == peers::Policy::ZoltanBlock ? "BLOCK" : "RCB", peers::speeds(*platform), "ALL");
      zoltan->partition(objects);
#else
      counts = parse_counts(o.counts, size, o.rays);
#endif
    } else {
      hetlb::scatter::Request request;
      request.algorithm = policy == peers::Policy::HetlbLp ? hetlb::scatter::Algorithm::Lp : hetlb::scatter::Algorithm::Exact;
      plan.emplace(*platform, o.rays, 0, MPI_COMM_WORLD, request);
      send_order.assign(plan->distribution().send_order.begin(), plan->distribution().send_order.end());
    }
  } catch (const std::exception& e) {
    error = e.what();
    failed = 1;
  }
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (failed) return fail_everywhere(rank, error.empty() ? "planning failed on another rank" : error, 1);
  // Another transport: the policy's counts in rank order, its rays grouped by rank on the root.
  std::vector<int> t_counts, t_displs;
  std::vector<seismic::Ray> grouped;
  std::optional<hetlb::mpi::Plan> ordered;
  if (o.transport != "native") {
    if (plan) {
      t_counts = plan->distribution().counts;
    } else if (!counts.empty()) {
      t_counts.assign(counts.begin(), counts.end());
    }
#ifndef HETLB_SMPI
    else if (zoltan) {  // the root's exports say where each ray goes; the rest stay on the root
      t_counts.assign(static_cast<std::size_t>(size), 0);
      std::vector<int> owner(rays.size(), 0);
      for (int i = 0; i < zoltan->exports().count; ++i) owner[zoltan->exports().lids[i]] = zoltan->exports().procs[i];
      for (int r : owner) ++t_counts[static_cast<std::size_t>(r)];
      if (rank == 0)
        for (int r = 0; r < size; ++r)
          for (std::size_t i = 0; i < rays.size(); ++i)
            if (owner[i] == r) grouped.push_back(rays[i]);
      MPI_Bcast(t_counts.data(), size, MPI_INT, 0, MPI_COMM_WORLD);
    }
#endif
    t_displs.assign(t_counts.size(), 0);
    for (std::size_t k = 1; k < t_counts.size(); ++k) t_displs[k] = t_displs[k - 1] + t_counts[k - 1];
    if (grouped.empty()) grouped = rays;
    if (o.transport == "scatterv") {
      send_order = hetlb::scatter::send_order(*platform, 0, hetlb::scatter::OrderPolicy::Given);
    } else {
      hetlb::mpi::Distribution d;
      d.counts = t_counts;
      d.displs = t_displs;
      for (std::size_t k : send_order) d.send_order.push_back(static_cast<int>(k));
      d.gather_order = d.send_order;
      d.root = 0;
      d.comm = MPI_COMM_WORLD;
      ordered.emplace(std::move(d), MPI_COMM_WORLD);
    }
  }
  const double plan_seconds = MPI_Wtime() - plan_start;

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  std::vector<seismic::Ray> mine;
  if (o.transport == "scatterv") {
    mine.resize(static_cast<std::size_t>(t_counts[static_cast<std::size_t>(rank)]));
    MPI_Scatterv(grouped.data(), t_counts.data(), t_displs.data(), ray_type, mine.data(),
                 t_counts[static_cast<std::size_t>(rank)], ray_type, 0, MPI_COMM_WORLD);
  } else if (ordered) {
    mine.resize(static_cast<std::size_t>(ordered->count()));
    ordered->scatter(grouped.data(), ray_type, mine.data(), ray_type);
  } else if (policy == peers::Policy::MpiScatter) {  // RR-4770's original code: n / p each, the root keeps the rest
    const int q = static_cast<int>(o.rays / size);
    mine.resize(static_cast<std::size_t>(q));
    MPI_Scatter(rays.data(), q, ray_type, mine.data(), q, ray_type, 0, MPI_COMM_WORLD);
    if (rank == 0) mine.insert(mine.end(), rays.begin() + static_cast<long long>(q) * size, rays.end());
  } else if (policy == peers::Policy::Divmod || (by_zoltan && !counts.empty())) {
    std::vector<int> c(counts.begin(), counts.end()), displs(c.size(), 0);
    for (std::size_t k = 1; k < c.size(); ++k) displs[k] = displs[k - 1] + c[k - 1];
    mine.resize(static_cast<std::size_t>(c[static_cast<std::size_t>(rank)]));
    MPI_Scatterv(rays.data(), c.data(), displs.data(), ray_type, mine.data(), c[static_cast<std::size_t>(rank)], ray_type, 0,
                 MPI_COMM_WORLD);
  }
#ifndef HETLB_SMPI
  else if (zoltan) {
    peers::Migration migration;
    migration.size = sizeof(seismic::Ray);
    migration.pack = [&](ZOLTAN_ID_TYPE lid, char* buf) { std::memcpy(buf, &rays[lid], sizeof(seismic::Ray)); };
    migration.unpack = [&](ZOLTAN_ID_TYPE, const char* buf) {
      seismic::Ray r;
      std::memcpy(&r, buf, sizeof r);
      mine.push_back(r);
    };
    if (rank == 0) {  // the root keeps what it does not export
      std::vector<char> leaves(rays.size(), 0);
      for (int i = 0; i < zoltan->exports().count; ++i) leaves[zoltan->exports().lids[i]] = 1;
      for (std::size_t i = 0; i < rays.size(); ++i)
        if (!leaves[i]) mine.push_back(rays[i]);
    }
    zoltan->migrate(migration);
  }
#endif
  else {
    mine.resize(static_cast<std::size_t>(plan->count()));
    plan->scatter(rays.data(), ray_type, mine.data(), ray_type);
  }
  const double received = MPI_Wtime() - start;
  std::vector<seismic::Traced> traced(mine.size());
#ifndef HETLB_SMPI
  for (std::size_t i = 0; i < mine.size(); ++i)
    for (int repeat = 0; repeat < slowdown; ++repeat) traced[i] = seismic::trace(mine[i], model);
#else  // traced once for real; the simulated work is --flops-per-ray (1: hosts run at rays/s) x the slowdown
  for (std::size_t i = 0; i < mine.size(); ++i) traced[i] = seismic::trace(mine[i], model);
  smpi_execute_flops(static_cast<double>(mine.size()) * o.flops_per_ray * slowdown);
#endif
  const double finished = MPI_Wtime() - start;
  if (o.lose_one && rank == size - 1 && !traced.empty()) traced.pop_back();

  // Times, counts and results to rank 0 (after the clock).
  double times[2] = {received, finished};
  std::vector<double> all_times(2 * static_cast<std::size_t>(size));
  MPI_Gather(times, 2, MPI_DOUBLE, all_times.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  // Tracing time per ray on each rank, over the slowdown: how unlike the rays of each share were.
  double per_ray = mine.empty() ? 0.0 : (finished - received) / static_cast<double>(mine.size() * static_cast<std::size_t>(slowdown));
  std::vector<double> all_per_ray(static_cast<std::size_t>(size));
  MPI_Gather(&per_ray, 1, MPI_DOUBLE, all_per_ray.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int mine_count = static_cast<int>(traced.size());
  std::vector<int> got(static_cast<std::size_t>(size)), displs(got.size(), 0);
  MPI_Gather(&mine_count, 1, MPI_INT, got.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  long long total = 0;
  for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = static_cast<int>(total), total += got[static_cast<std::size_t>(r)];
  std::vector<seismic::Traced> results(rank == 0 ? static_cast<std::size_t>(total) : 0);
  MPI_Gatherv(traced.data(), mine_count, traced_type, results.data(), got.data(), displs.data(), traced_type, 0, MPI_COMM_WORLD);

  int ok = 1;
  if (rank == 0) {
    std::string why;
    std::vector<int> seen(static_cast<std::size_t>(o.rays), 0);
    for (const seismic::Traced& t : results) {
      const auto id = static_cast<long long>(t.id);
      if (id < 0 || id >= o.rays) {
        why = "a result has no valid ray id";
        break;
      }
      ++seen[static_cast<std::size_t>(id)];
    }
    for (long long i = 0; why.empty() && i < o.rays; ++i)
      if (seen[static_cast<std::size_t>(i)] != 1)
        why = "ray " + std::to_string(i) + " traced " + std::to_string(seen[static_cast<std::size_t>(i)]) + " times";
    if (!why.empty()) {
      std::fprintf(stderr, "hetlb-peers-seismic: conservation check failed (%s): %s\n", o.policy.c_str(), why.c_str());
      ok = 0;
    } else {
      double makespan = 0, distribution = 0;
      int slowest = 0;
      for (int r = 0; r < size; ++r) {
        distribution = std::max(distribution, all_times[2 * static_cast<std::size_t>(r)]);
        if (all_times[2 * static_cast<std::size_t>(r) + 1] > makespan) makespan = all_times[2 * static_cast<std::size_t>(r) + 1], slowest = r;
      }
      const std::vector<hetlb::Count> by_rank(got.begin(), got.end());
      double low = 0, high = 0;
      for (double v : all_per_ray)
        if (v > 0) low = low == 0 ? v : std::min(low, v), high = std::max(high, v);
      std::string shares;
      for (int c : got) shares += (shares.empty() ? "" : " ") + std::to_string(c);
      if (o.header) std::printf("ranks,policy,rays,measured_makespan,model_makespan,distribution_seconds,plan_seconds,slowest_rank,per_ray_spread,transport,counts\n");
      std::printf("%d,%s,%lld,%.6f,%.6f,%.6f,%.6f,%d,%.4f,%s,%s\n", size, o.policy.c_str(), o.rays, makespan,
                  peers::model_makespan(*platform, send_order, by_rank), distribution, plan_seconds, slowest,
                  low > 0 ? high / low : 0.0, o.transport.c_str(), shares.c_str());
      std::fflush(stdout);
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
#ifndef HETLB_SMPI
  zoltan.reset();
#endif
  plan.reset();
  ordered.reset();
  MPI_Datatype types[2] = {ray_type, traced_type};
  for (MPI_Datatype& t : types) MPI_Type_free(&t);
  MPI_Finalize();
  return ok ? 0 : 1;
}
