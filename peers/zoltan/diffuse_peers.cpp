// hetlb-peers-diffuse: hetlb-diffuse's fixed-work application (its items, kernel and emulated unlike
// ranks: programs/hetlb-diffuse) under one balancing policy (--balancer, dynamic_balancers.hpp), for the
// dynamic comparison with Zoltan (issue 33, docs/peers.md). --kernel synthetic: every item costs
// --ratio ms on the slowest rank; seismic: the items are examples/seismic's rays, each costing its
// traced segment count (legs crossed x bisection steps, traced once before the clock), scaled so that
// the mean is --ratio ms; drift: costs that move across the items every iteration (drift_costs); every
// cost is spent by waiting (emulation.hpp). Bulk-synchronous: every iteration each rank
// computes every item it holds once, waits the emulated cost (--speeds, --slowdown), calls its balancer
// (items move only there), and the ranks agree (MPI_Allgather) on the iteration's times. The run ends
// after --work iterations; rank 0 checks by id that every item is held once, intact, processed exactly
// --work times (exit 1 otherwise), and prints one CSV line.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include "hetlb/build_info.hpp"
#include "dynamic_balancers.hpp"
#include "emulation.hpp"
#include "hetlb/diffusion/initial_load.hpp"
#include "items.hpp"
#include "number_checks.hpp"

namespace {

// --kernel drift: item id's cost in iteration t, a wave of costs travelling across the ids (one period
// every kDriftPeriod iterations), 9x from the cheapest item to the costliest and a mean of exactly 1 in
// every iteration (the sines of n evenly spaced phases add up to 0): a zoom's rows, whose costs move.
constexpr double kDriftPeriod = 30;
std::vector<double> drift_costs(std::uint64_t n, long t) {
  constexpr double kTwoPi = 6.283185307179586;
  std::vector<double> c(n);
  for (std::uint64_t i = 0; i < n; ++i)
    c[i] = 1.0 + 0.8 * std::sin(kTwoPi * (static_cast<double>(i) / static_cast<double>(n) - static_cast<double>(t) / kDriftPeriod));
  return c;
}

struct Options {
  std::string balancer = "none", initial = "random", kernel = "synthetic", speeds, trace, metrics;
  std::vector<std::string> slowdowns, hetlb_options;
  double ratio = 1, load_per_node = 30;
  long work = 100;
  std::size_t item_bytes = 1024;
  unsigned long long seed = 1;
  bool header = false, skip_one = false;
};

struct Run {
  double time_to_solution = 0;
  std::vector<double> dates, imbalance;
  double balancer_seconds = 0;
};

constexpr const char* kHeader =
    "ranks,balancer,initial,ratio,item_bytes,items,work,time_to_solution,items_moved,balancer_seconds_max,"
    "balancer_seconds_mean,imbalance_mean,balancer_seconds_per_rank,kernel";

// The verdict of rank 0's check, the same on every rank.
std::string agreed(std::string text, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, comm);
  return text;
}

// Every id 0..total-1 held once, its payload the one make_item gave, processed exactly `work` times.
std::string check(const peers::ItemMap& items, std::uint64_t total, long work, std::size_t item_bytes,
                  const std::vector<seismic::Ray>& rays, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<unsigned char> fresh(item_bytes);
  std::vector<std::uint64_t> mine;  // id, times, intact
  for (const auto& [id, bytes] : items) {
    diffuse::make_item(id, rays, fresh.data(), item_bytes);
    const auto* h = reinterpret_cast<const diffuse::ItemHeader*>(bytes.data());
    mine.insert(mine.end(), {id, h->times, diffuse::payload_hash(bytes.data(), item_bytes) ==
                                              diffuse::payload_hash(fresh.data(), item_bytes) ? 1u : 0u});
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  int all = 0;
  for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = all, all += counts[static_cast<std::size_t>(r)];
  std::vector<std::uint64_t> every(rank == 0 ? static_cast<std::size_t>(all) : 0);
  MPI_Gatherv(mine.data(), count, MPI_UINT64_T, every.data(), counts.data(), displs.data(), MPI_UINT64_T, 0, comm);
  std::string verdict;
  if (rank == 0) {
    std::vector<int> seen(total, 0);
    for (std::size_t k = 0; k + 2 < every.size(); k += 3) {
      const std::uint64_t id = every[k], times = every[k + 1];
      if (id >= total || seen[id]++ > 0) { verdict = "item " + std::to_string(id) + " held twice or unknown"; break; }
      if (every[k + 2] != 1) { verdict = "item " + std::to_string(id) + " has a damaged payload"; break; }
      if (times != static_cast<std::uint64_t>(work)) {
        verdict = "item " + std::to_string(id) + " processed " + std::to_string(times) + " times, expected " + std::to_string(work);
        break;
      }
    }
    for (std::uint64_t id = 0; verdict.empty() && id < total; ++id)
      if (seen[id] == 0) verdict = "item " + std::to_string(id) + " lost";
  }
  return agreed(verdict, comm);
}

int run(const Options& o, int rank, int size, MPI_Comm comm) {
  // Checks first: the same arguments give the same error on every rank, before any collective.
  const peers::BalancerChoice choice = peers::parse_balancer(o.balancer);
  for (const std::string& key_value : o.hetlb_options) peers::check_hetlb_option(key_value);
  for (const auto& [name, given] : {std::pair{"--metrics", !o.metrics.empty()}, std::pair{"--hetlb-option", !o.hetlb_options.empty()}})
    if (given && choice.kind != peers::BalancerChoice::Kind::Hetlb)
      throw std::invalid_argument(std::string(name) + ": expected a balancer of hetlb's (hetlb, hetlb-global or a named variant), not " + o.balancer);
  if (!(o.ratio > 0 && o.ratio <= 1e3)) throw std::invalid_argument("--ratio " + std::to_string(o.ratio) + ": expected a positive number of ms per item, at most 1000");
  if (o.item_bytes < diffuse::kMinItemBytes)
    throw std::invalid_argument("--item-bytes " + std::to_string(o.item_bytes) + ": expected at least " + std::to_string(diffuse::kMinItemBytes));
  std::vector<double> speeds = o.speeds.empty() ? std::vector<double>(static_cast<std::size_t>(size), 1.0)
                                                : diffuse::parse_speeds(o.speeds, size);
  if (choice.kind == peers::BalancerChoice::Kind::Static && o.speeds.empty())
    throw std::invalid_argument("--balancer " + o.balancer + ": expected --speeds (the emulated speeds)");
  std::vector<diffuse::Slowdown> slowdowns;
  for (const std::string& s : o.slowdowns) slowdowns.push_back(diffuse::parse_slowdown(s, size));
  diffuse::check_slowdowns(slowdowns);
  const std::vector<double> loads = hetlb::diffusion::make_initial_load(o.initial, size, o.load_per_node, true, o.seed);

  std::uint64_t total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) first = total;
    total += static_cast<std::uint64_t>(loads[static_cast<std::size_t>(r)]);
  }
  // Seismic: the same rays on every rank (from --seed), each traced once for its cost; costs[id] is the
  // ray's segment count over the mean (so the mean item costs --ratio ms on the slowest rank).
  std::vector<seismic::Ray> rays;
  std::vector<double> costs, travel_times;
  if (o.kernel == "seismic") {
    const std::vector<seismic::Layer> model = seismic::earth_model();
    rays = seismic::generate_rays(static_cast<std::int64_t>(total), o.seed, model);
    double sum = 0;
    for (const seismic::Ray& ray : rays) {
      std::int64_t segments = 0;
      travel_times.push_back(seismic::trace(ray, model, segments).travel_time);
      costs.push_back(static_cast<double>(segments));
      sum += static_cast<double>(segments);
    }
    for (double& c : costs) c *= static_cast<double>(total) / sum;
  }
  // Drift: the balancers start from the costs before the first iteration and then see, after each
  // iteration, the cost every item had in it (what a program measures); the emulation spends the
  // iteration's own costs.
  const bool drift = o.kernel == "drift";
  std::vector<double> drift_now;
  if (drift) costs = drift_costs(total, 0);
  peers::ItemMap items;
  for (std::uint64_t id = first; id < first + static_cast<std::uint64_t>(loads[static_cast<std::size_t>(rank)]); ++id) {
    std::vector<unsigned char>& b = items[id];
    b.resize(o.item_bytes);
    diffuse::make_item(id, rays, b.data(), o.item_bytes);
  }
  const double unit = o.ratio * 1e-3;  // s per item on the slowest rank (hetlb-diffuse's emulation unit)
  const diffuse::Emulation emulation(speeds, slowdowns, rank, unit);
  peers::BalancerSettings settings;
  settings.speeds = speeds;
  settings.tau = static_cast<double>(total) / size * unit;
  settings.item_bytes = o.item_bytes;
  settings.costs = costs;
  if (drift) settings.live_costs = &costs;
  settings.hetlb_options = o.hetlb_options;
  settings.iteration_calls = o.work - 1;  // after_iteration follows every iteration but the last
  std::unique_ptr<peers::Balancer> balancer = peers::make_balancer(choice, settings, comm);

  Run out;
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  double t = MPI_Wtime();
  balancer->start(items);
  out.balancer_seconds += MPI_Wtime() - t;
  std::vector<double> all(2 * static_cast<std::size_t>(size));
  for (long iteration = 1;; ++iteration) {
    const double from = MPI_Wtime();
    if (drift) drift_now = drift_costs(total, iteration);
    const std::vector<double>& spent = drift ? drift_now : costs;
    double processed = 0;
    for (auto& [id, bytes] : items) {
      auto* h = reinterpret_cast<diffuse::ItemHeader*>(bytes.data());
      if (h->times >= static_cast<std::uint64_t>(o.work)) continue;
      if (o.skip_one && id == 0 && iteration == 1) continue;  // the check must see this
      // The computation is the emulated wait below; the seismic result is the ray's traced travel time.
      h->result = travel_times.empty() ? diffuse::compute(*h, id, nullptr, 0) : travel_times[id];
      ++h->times;
      processed += spent.empty() ? 1.0 : spent[id];
    }
    emulation.spend(from, start, processed);
    const double computed = MPI_Wtime() - from;
    if (drift) costs = drift_now;  // what the balancers see: this iteration's costs
    t = MPI_Wtime();
    if (iteration < o.work) balancer->after_iteration(items, iteration, computed, processed);
    out.balancer_seconds += MPI_Wtime() - t;
    const double mine[2] = {computed, static_cast<double>(iteration < o.work)};
    MPI_Allgather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, comm);
    double longest = 0, sum = 0;
    for (int r = 0; r < size; ++r) {
      longest = std::max(longest, all[2 * static_cast<std::size_t>(r)]);
      sum += all[2 * static_cast<std::size_t>(r)];
    }
    out.dates.push_back(MPI_Wtime() - start);
    out.imbalance.push_back(sum > 0 ? longest / (sum / size) : 1.0);
    if (iteration >= o.work) break;  // every item held has been processed once per iteration
  }
  out.time_to_solution = out.dates.back();
  t = MPI_Wtime();
  balancer->finish(items);
  out.balancer_seconds += MPI_Wtime() - t;

  const std::string metrics = o.metrics.empty() ? std::string() : balancer->metrics_json();  // collective
  const std::string verdict = check(items, total, o.work, o.item_bytes, rays, comm);
  std::uint64_t moved = 0;
  MPI_Reduce(&balancer->received, &moved, 1, MPI_UINT64_T, MPI_SUM, 0, comm);
  std::vector<double> seconds(static_cast<std::size_t>(size));
  MPI_Gather(&out.balancer_seconds, 1, MPI_DOUBLE, seconds.data(), 1, MPI_DOUBLE, 0, comm);
  if (rank != 0) return verdict.empty() ? 0 : 1;
  if (!verdict.empty()) {
    std::fprintf(stderr, "hetlb-peers-diffuse: conservation check failed (%s): %s\n", o.balancer.c_str(), verdict.c_str());
    return 1;
  }
  double imbalance = 0, max_seconds = 0, sum_seconds = 0;
  for (double v : out.imbalance) imbalance += v;
  std::string per_rank;
  for (double s : seconds) {
    max_seconds = std::max(max_seconds, s), sum_seconds += s;
    per_rank += (per_rank.empty() ? "" : ";") + std::to_string(s);
  }
  if (!o.trace.empty()) {
    std::ofstream f(o.trace);
    f << "date,imbalance\n";
    for (std::size_t k = 0; k < out.dates.size(); ++k) f << out.dates[k] << "," << out.imbalance[k] << "\n";
    if (!f) throw std::runtime_error("--trace " + o.trace + ": cannot write");
  }
  if (!o.metrics.empty()) {
    std::ofstream f(o.metrics);
    f << metrics << "\n";
    if (!f) throw std::runtime_error("--metrics " + o.metrics + ": cannot write");
  }
  if (o.header) std::cout << kHeader << "\n";
  std::printf("%d,%s,%s,%g,%zu,%llu,%ld,%.6f,%llu,%.6f,%.6f,%.4f,%s,%s\n", size, o.balancer.c_str(), o.initial.c_str(), o.ratio,
              o.item_bytes, static_cast<unsigned long long>(total), o.work, out.time_to_solution,
              static_cast<unsigned long long>(moved), max_seconds, sum_seconds / size,
              imbalance / static_cast<double>(out.imbalance.size()), per_rank.c_str(), o.kernel.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-peers-diffuse")) return 0;  // before MPI or any parsing
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  CLI::App app{"hetlb-diffuse's fixed-work application under one balancing policy (hetlb or Zoltan)"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--balancer", o.balancer, "none, static (the plan for the given speeds), static-equal (the plan for equal speeds), hetlb (the runtime's defaults), hetlb-global, "
                 "besteffort1, besteffort2, makhoul (each optionally -vl), zoltan:P, zoltan-imbalance:T")->capture_default_str();
  app.add_option("--speeds", o.speeds, "emulated relative speeds, one per rank (or a file; hetlb-diffuse's --speeds)");
  app.add_option("--slowdown", o.slowdowns, "RANK:FACTOR:START:END (hetlb-diffuse's --slowdown)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--initial", o.initial, "single (all on rank 0) or random")->check(CLI::IsMember({"single", "random"}))
      ->capture_default_str();
  app.add_option("--load-per-node", o.load_per_node, "items / ranks")->capture_default_str()
      ->check(hetlb::cli::whole_number<long>(1, 1000000));
  app.add_option("--work", o.work, "iterations: every item processed this many times")->capture_default_str()
      ->check(hetlb::cli::whole_number<long>(1, 1000000));
  app.add_option("--ratio", o.ratio, "ms per item on the slowest rank (seismic: the mean; emulated by waiting)")
      ->capture_default_str();
  app.add_option("--kernel", o.kernel, "synthetic (every item costs --ratio), seismic (examples/seismic's rays, "
                 "each costing its traced segment count, scaled to a mean of --ratio) or drift (costs from 0.2 to "
                 "1.8 x --ratio that move across the items every iteration, a period of 30)")
      ->check(CLI::IsMember({"synthetic", "seismic", "drift"}))->capture_default_str();
  app.add_option("--item-bytes", o.item_bytes, "bytes per item")->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the random initial load and of the rays")->capture_default_str();
  app.add_option("--hetlb-option", o.hetlb_options, "KEY=VALUE: one of hetlb's runtime options changed from its default "
                 "(a tuning study), KEY one of " + peers::hetlb_option_keys())
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--metrics", o.metrics, "JSON of hetlb's runtime metrics: its global steps (date, predicted gain and "
                 "cost, work and items moved) and moves (rank 0; hetlb's balancers only)");
  app.add_option("--trace", o.trace, "CSV of the iteration-time imbalance over time (rank 0)");
  app.add_flag("--header", o.header, "print the CSV header first");
  app.add_flag("--skip-one", o.skip_one, "test: item 0 skips its first iteration (the check must fail)");
  int code = 0;
  try {
    app.parse(argc, argv);
    code = run(o, rank, size, MPI_COMM_WORLD);
  } catch (const CLI::CallForHelp& e) {
    code = rank == 0 ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::fprintf(stderr, "hetlb-peers-diffuse: %s (see --help)\n", e.what());
    code = 2;
  } catch (const std::exception& e) {  // raised alike on every rank (checked before any collective)
    if (rank == 0) std::fprintf(stderr, "hetlb-peers-diffuse: %s\n", e.what());
    code = 2;
  }
  MPI_Finalize();
  return code;
}
