// hetlb-diffuse: an asynchronous iterative MPI program balanced by hetlb's diffusion runtime
// (hetlb/mpi/diffusion.hpp). Its items are the seismic rays of examples/seismic (uneven real cost) or
// a synthetic kernel of --ratio x 1e6 flops per item (charged in simulated flops under SMPI). Options
// mirror `hetlb simulate diffusion`. At the end rank 0 checks that every item id is held exactly once
// with an intact payload and a correct result (exit 1 otherwise) and prints the metrics.
#include <algorithm>
#include <cmath>
#include <utility>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <unordered_map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include "hetlb/io/build_json.hpp"
#include "hetlb/build_info.hpp"
#include "hetlb/diffusion/initial_load.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/mpi/diffusion.hpp"
#include "hetlb/mpi/option_agreement.hpp"
#include "item_costs.hpp"
#include "items.hpp"
#include "number_checks.hpp"
#include "unlike_ranks.hpp"
#include "verify.hpp"
#include "watchdog.hpp"
#include "work_run.hpp"

#ifdef HETLB_SMPI
#include <smpi/smpi.h>
#endif

namespace {

struct Options {
  // The runtime's defaults (hetlb/mpi/diffusion.hpp): what a program using it gets without asking.
  std::string topology = hetlb::mpi::DiffusionOptions{}.topology, strategy = "besteffort", initial = "single",
              kernel = "synthetic";
  std::string format = "table", progress = "calls", thread_level, costs, balancer;
  double k = 1, load_per_node = 100, ratio = 1e-3, time_limit = 60, stop_after = 0;
  double min_lb = -1, min_comp = -1;
  bool virtual_load = false, integer = false, app_items = false;
  unsigned long long seed = 1;
  long iterations = 20;
  std::size_t item_bytes = 64;
  // Unlike ranks and fixed work (run_options.cpp).
  std::string mode, balance = hetlb::mpi::DiffusionOptions{}.balance, speeds, speed_source = "measured", plot;
  std::vector<std::string> slowdowns, params;
  long work = 0;
};

// An error every rank throws together (printed once, by rank 0). Any other failure once the options are
// agreed is one rank's: it ends the job (MPI_Abort) with one line, since the others wait for it.
struct Agreed : hetlb::Error {
  using hetlb::Error::Error;
};
bool options_agreed = false;

// The same verdict on every rank: the lowest failing rank's reason, printed once by rank 0.
void agree(const std::string& local_error, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_error.empty() ? size : rank, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int length = static_cast<int>(local_error.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  std::string text = local_error;
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
  throw Agreed(text);
}

int thread_level(const std::string& name) {
  if (name == "single") return MPI_THREAD_SINGLE;
  if (name == "funneled") return MPI_THREAD_FUNNELED;
  if (name == "serialized") return MPI_THREAD_SERIALIZED;
  return MPI_THREAD_MULTIPLE;
}

void add_options(CLI::App& app, Options& o) {
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a later option wins
  app.add_option("--topology", o.topology, "auto, " + hetlb::diffusion::topology_help())
      ->capture_default_str();
  app.add_option("--strategy", o.strategy, hetlb::diffusion::strategy_help())->capture_default_str();
  app.add_option("--param", o.params, "NAME=VALUE: a parameter of the strategy (repeatable)")->take_all()->allow_extra_args(false);
  app.add_option("--k", o.k, "best effort: divide each transfer by k (>= 1)")->capture_default_str();
  app.add_flag("--virtual-load", o.virtual_load, "announce transfers on control messages (virtual load)");
  app.add_flag("--integer", o.integer, "integer load (round down, then DASUD's unit rules)");
  app.add_option("--initial", o.initial, "single (all on rank 0), random, or a file of loads")->capture_default_str();
  app.add_option("--load-per-node", o.load_per_node, "items / ranks")->capture_default_str();
  app.add_option("--seed", o.seed, "seed of the random initial load and of the rays")
      ->capture_default_str()
      ->check(hetlb::cli::whole_number<unsigned long long>(0, std::numeric_limits<unsigned long long>::max()));
  app.add_option("--iterations", o.iterations, "consecutive computing iterations within 1% of the average")
      ->capture_default_str()
      ->check(hetlb::cli::whole_number<long>(1, std::numeric_limits<long>::max()));
  app.add_option("--ratio", o.ratio, "synthetic kernel: ratio x 1e6 flops per item (the simulator's --ratio)")
      ->capture_default_str();
  app.add_option("--kernel", o.kernel, "synthetic or seismic (ray tracing of examples/seismic)")
      ->check(CLI::IsMember({"synthetic", "seismic"}))->capture_default_str();
  app.add_option("--item-bytes", o.item_bytes, "bytes per item (at least the 48-byte header)")
      ->capture_default_str()
      ->check(hetlb::cli::whole_number<std::size_t>(0, std::numeric_limits<std::size_t>::max()));
  app.add_option("--min-lb-iter", o.min_lb, "minimum load-balancing iteration, s (default tau = average x ratio x 1 ms)");
  app.add_option("--min-comp-iter", o.min_comp, "minimum computing iteration, s (default tau / 10)");
  app.add_option("--time-limit", o.time_limit, "s; the run ends anyway (0: none)")->capture_default_str();
  app.add_option("--progress", o.progress, "thread (MPI_THREAD_MULTIPLE) or calls (progress() between items)")
      ->check(CLI::IsMember({"thread", "calls"}))->capture_default_str();
  app.add_option("--thread-level", o.thread_level, "level asked of MPI_Init_thread (default: multiple with "
                 "--progress thread, else single)")->check(CLI::IsMember({"single", "funneled", "serialized", "multiple"}));
  app.add_option("--costs", o.costs, "a file of item costs: one number > 0 per item in id order (text, or a JSON "
                 "array); a rank's load is the sum of its items' costs (default: 1 each)");
  app.add_flag("--app-items", o.app_items, "the program owns its items; the runtime moves them with pack/unpack");
  app.add_option("--stop-after", o.stop_after, "end with stop() after this many seconds (0: convergence)");
  app.add_option("--balancer", o.balancer, "diffusion, global or hybrid (default: the runtime's, hybrid); global steps "
                 "happen in the bulk-synchronous mode only (--work or --mode bsp)")
      ->check(CLI::IsMember({"diffusion", "global", "hybrid"}));
  diffuse::add_unlike_rank_options(app, o);
  app.add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
}

// The program's own bounds: work per item that an iteration can finish, items that fit in memory,
// durations that are durations. Throws hetlb::Error naming the option.
constexpr double kMaxRatio = 1e6;              // 1e12 flops per item: about 1000 s at 1 Gflop/s
constexpr double kMaxItemBytesInAll = 0x1p34;  // 16 GiB of items over every rank
constexpr std::size_t kMaxItemBytes = std::size_t{1} << 30;
constexpr double kMaxPeriod = 60;  // the runtime's bound on its periods (docs/limits.md)
void check_options(const Options& o) {
  // The strategy and its parameters (a plug-in loaded and checked); k is the runtime's to check.
  hetlb::diffusion::strategy_of(o.strategy, o.k >= 1 ? o.k : 1.0, false, o.params, o.integer);
  if (!(o.ratio > 0 && o.ratio <= kMaxRatio))
    throw hetlb::Error(fmt::format("--ratio {}: expected a positive ratio of at most {:g} ({:g} flops per item)",
                                   o.ratio, kMaxRatio, kMaxRatio * 1e6));
  if (!(o.load_per_node > 0) || !std::isfinite(o.load_per_node))
    throw hetlb::Error(fmt::format("--load-per-node {}: expected a positive number of items", o.load_per_node));
  if (o.item_bytes > 0 && o.item_bytes < diffuse::kMinItemBytes)
    throw hetlb::Error(fmt::format("--item-bytes {}: expected at least {} (the item header)", o.item_bytes,
                                   diffuse::kMinItemBytes));
  if (o.item_bytes > kMaxItemBytes)
    throw hetlb::Error(fmt::format("--item-bytes {}: expected at most {} (1 GiB)", o.item_bytes, kMaxItemBytes));
  if (!(o.time_limit >= 0) || !std::isfinite(o.time_limit))
    throw hetlb::Error(fmt::format("--time-limit {}: expected a non-negative number of seconds (0: none)", o.time_limit));
  for (const auto& [name, value] : {std::pair{"--min-lb-iter", o.min_lb}, std::pair{"--min-comp-iter", o.min_comp}})
    if (!(value <= kMaxPeriod) || (value < 0 && value != -1))
      throw hetlb::Error(fmt::format("{} {}: expected a non-negative number of seconds, at most {:g}", name, value,
                                     kMaxPeriod));
  if (!(o.stop_after >= 0) || !std::isfinite(o.stop_after))
    throw hetlb::Error(fmt::format("--stop-after {}: expected a non-negative number of seconds (0: at convergence)",
                                   o.stop_after));
}

// Every item is held in memory: their total size is bounded (before any count is converted).
void check_total(const Options& o, const std::vector<double>& loads) {
  double items = 0;
  for (double l : loads) items += l;
  if (!(items * static_cast<double>(o.item_bytes) <= kMaxItemBytesInAll))
    throw hetlb::Error(fmt::format("{:g} items of {} bytes in all: expected at most {:g} bytes (16 GiB) of items "
                                   "(fewer items per node, or smaller --item-bytes)",
                                   items, o.item_bytes, kMaxItemBytesInAll));
}

int run(const Options& o, int rank, int size) {
  // Every option the ranks must share, compared before anything else (--format: rank 0 prints;
  // --progress, --thread-level: each rank's own way of progressing).
  if (!hetlb::mpi::check_options_agree(
          MPI_COMM_WORLD, "hetlb-diffuse",
          {{"--topology", o.topology}, {"--strategy", o.strategy}, {"--k", o.k},
           {"--param", fmt::format("{}", fmt::join(o.params, " "))}, {"--virtual-load", o.virtual_load},
           {"--integer", o.integer}, {"--initial", o.initial}, {"--load-per-node", o.load_per_node},
           {"--seed", o.seed}, {"--iterations", o.iterations}, {"--ratio", o.ratio}, {"--kernel", o.kernel},
           {"--item-bytes", o.item_bytes}, {"--min-lb-iter", o.min_lb}, {"--min-comp-iter", o.min_comp},
           {"--time-limit", o.time_limit}, {"--app-items", o.app_items}, {"--stop-after", o.stop_after},
           {"--speed-source", o.speed_source}, {"--costs", o.costs}}))
    return 2;
  options_agreed = true;
  // Items and their initial placement (the simulator's initial loads, whole items).
  std::string error;
  std::vector<double> loads;
  diffuse::UnlikeRanks unlike;
  std::vector<double> costs;  // per item id; empty: 1 each
  try {
    check_options(o);
    loads = hetlb::diffusion::make_initial_load(o.initial, size, o.load_per_node, true, o.seed);
    check_total(o, loads);
    double items = 0;
    for (double l : loads) items += std::floor(l);
    if (!o.costs.empty()) costs = diffuse::read_item_costs(o.costs, static_cast<std::uint64_t>(items));
    unlike = diffuse::make_unlike_ranks(o, rank, size);
  } catch (const std::exception& e) {
    error = e.what();
  }
  agree(error, MPI_COMM_WORLD);
  diffuse::share_host_speeds(o, unlike, MPI_COMM_WORLD);
  std::uint64_t total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) first = total;
    total += static_cast<std::uint64_t>(loads[static_cast<std::size_t>(r)]);
  }
  const std::uint64_t count = static_cast<std::uint64_t>(loads[static_cast<std::size_t>(rank)]);
  const double average = static_cast<double>(total) / size;
  // The simulator's: the average load on a 1 Gflop/s host (within the runtime's bound).
  const double tau = std::min(average * o.ratio * 1e-3, kMaxPeriod);

  hetlb::mpi::DiffusionOptions options;
  options.topology = o.topology;
  options.strategy = o.strategy;
  options.k = o.k;
  options.strategy_params = o.params;
  options.virtual_load = o.virtual_load;
  options.integer = o.integer;
  options.iterations = o.iterations;
  options.min_balancing_period = o.min_lb >= 0 ? o.min_lb : tau;
  options.min_computing_period = o.min_comp >= 0 ? o.min_comp : tau / 10;
  options.time_limit = o.time_limit;
  options.progress_thread = o.progress == "thread";
  if (!o.balancer.empty()) options.balancer = o.balancer;
  diffuse::configure_mode(o, unlike, options);
  // --app-items: the items live in the program's own map, moved by pack/unpack (Zoltan style).
  std::unordered_map<std::uint64_t, std::vector<unsigned char>> owned;
  hetlb::mpi::ItemCallbacks callbacks{
      [&](std::uint64_t) { return o.item_bytes; },
      [&](std::uint64_t id, void* buffer) {
        auto it = owned.find(id);
        std::memcpy(buffer, it->second.data(), it->second.size());
        owned.erase(it);
      },
      [&](std::uint64_t id, const void* buffer, std::size_t bytes) {
        const auto* b = static_cast<const unsigned char*>(buffer);
        owned[id].assign(b, b + bytes);
      },
      {}};
  const auto make_lb = [&]() -> hetlb::mpi::Diffusion {
    try {  // bad options: the same error on every rank
      return o.app_items ? hetlb::mpi::Diffusion(MPI_COMM_WORLD, options, callbacks)
                         : hetlb::mpi::Diffusion(MPI_COMM_WORLD, options, o.item_bytes);
    } catch (const hetlb::Error& e) {
      throw Agreed(e.what());
    }
  };
  hetlb::mpi::Diffusion lb = make_lb();
  const auto item_of = [&](std::size_t i) -> void* {
    return o.app_items ? static_cast<void*>(owned.at(lb.id(i)).data()) : lb.item(i);
  };
  if (rank == 0 && !lb.notice().empty()) std::fprintf(stderr, "hetlb-diffuse: note: %s\n", lb.notice().c_str());

  const std::vector<seismic::Layer> model = seismic::earth_model();
  const bool seismic_kernel = o.kernel == "seismic";
  const std::vector<seismic::Ray> rays =
      seismic_kernel ? seismic::generate_rays(static_cast<std::int64_t>(total), o.seed, model) : std::vector<seismic::Ray>{};
  std::vector<unsigned char> item(o.item_bytes);
  for (std::uint64_t id = first; id < first + count; ++id) {
    diffuse::make_item(id, rays, item.data(), o.item_bytes);
    if (o.app_items) owned[id] = item;
    lb.add(id, o.app_items ? nullptr : item.data());
    if (!costs.empty()) lb.set_cost(id, costs[id]);
  }
#ifdef HETLB_SMPI
  const double real_flops = 0;  // charged to the simulated host instead
#else
  const double real_flops = unlike.emulation.active() ? 0 : o.ratio * 1e6;  // emulated: cost by waiting
#endif
  const std::size_t chunk = static_cast<std::size_t>(std::max(1.0, std::floor(average / 10)));
  try {
    lb.start();
  } catch (const hetlb::mpi::Error& e) {  // decided on every rank from the totals
    throw Agreed(e.what());
  }
  const double start = MPI_Wtime();
  const diffuse::Watchdog watchdog(o.time_limit, rank);  // the run ends even if a decision never returns
  bool running = o.work == 0;
  diffuse::WorkReport work;
  if (o.work > 0)
    work = diffuse::run_work(
        lb, item_of, o.work,
        [&](diffuse::ItemHeader& h, std::uint64_t id) {
          h.result = diffuse::compute(h, id, seismic_kernel ? &model : nullptr, real_flops);
        },
        [&](double from, double items) {
          if (unlike.emulation.active()) unlike.emulation.spend(from, start, items);
#ifdef HETLB_SMPI
          else if (items > 0) smpi_execute_flops(o.ratio * 1e6 * items);  // the synthetic kernel's cost
#endif
        },
        MPI_COMM_WORLD);
  // The iteration's computing seconds, progress() calls excluded, are what the runtime's speed estimate is
  // given (docs/runtime.md, "Speeds"): the time between iteration_done() calls would also count the
  // MPI costs of the polls, which under SMPI are a large and load-dependent share of a short iteration.
  double chunk_from = MPI_Wtime(), kernel_from = chunk_from, kernel_seconds = 0;
  while (running) {
    const std::size_t n = lb.size();
    for (std::size_t i = 0; i < n; ++i) {
      auto* h = static_cast<diffuse::ItemHeader*>(item_of(i));
      h->result = diffuse::compute(*h, lb.id(i), seismic_kernel ? &model : nullptr, real_flops);
      ++h->times;
      if ((i + 1) % chunk == 0 || i + 1 == n) {
        if (unlike.emulation.active()) unlike.emulation.spend(chunk_from, start, static_cast<double>((i % chunk) + 1));
        chunk_from = MPI_Wtime();
#ifdef HETLB_SMPI
        smpi_execute_flops(o.ratio * 1e6 * static_cast<double>((i % chunk) + 1));
#endif
        kernel_seconds += MPI_Wtime() - kernel_from;
        lb.progress();  // between items: receiving and balancing keep their period (no-op with a thread)
        kernel_from = MPI_Wtime();
      }
    }
    running = lb.iteration_done(kernel_seconds);
    chunk_from = kernel_from = MPI_Wtime();
    kernel_seconds = 0;
    if (o.stop_after > 0 && MPI_Wtime() - start >= o.stop_after) break;
  }
  if (o.stop_after > 0) lb.stop();
  const double wall = MPI_Wtime() - start;
  watchdog.disarm();

  nlohmann::json j = nlohmann::json::parse(lb.metrics_json());
  {  // the global steps taken (balancers global and hybrid): one line each
    nlohmann::json steps = nlohmann::json::array();
    for (const hetlb::diffusion::GlobalStepRecord& g : lb.metrics().global_steps)  // collective
      steps.push_back({{"call", g.call}, {"date", g.date}, {"gain", g.gain}, {"cost", g.cost}, {"work", g.work},
                       {"items", g.items}});
    j["balancer"] = options.balancer;
    j["global_steps"] = steps;
  }
  const std::string verdict = diffuse::verify(lb, item_of, o.item_bytes, total, rays, seismic_kernel ? &model : nullptr,
                                              real_flops, MPI_COMM_WORLD, static_cast<std::uint64_t>(o.work));
  diffuse::add_unlike_rank_report(j, lb, o, unlike, work, MPI_COMM_WORLD);
  if (rank == 0) {
    j["program"] = "hetlb-diffuse";
    j["kernel"] = o.kernel;
    j["initial"] = o.initial;
    j["seed"] = o.seed;
    j["ratio"] = o.ratio;
    j["tau"] = tau;
    j["items"] = total;
    j["item_bytes"] = o.item_bytes;
    j["costs"] = o.costs.empty() ? "unit" : o.costs;
    j["items_checked"] = verdict.empty();
    j["wall_seconds"] = wall;
    j["build"] = hetlb::io::build_json();
    if (o.format == "json") {
      std::cout << j.dump(2) << "\n";
    } else {
      for (const auto& [key, value] : j.items()) std::cout << fmt::format("{:<30}{}\n", key, value.dump());
    }
    if (!verdict.empty()) std::fprintf(stderr, "hetlb-diffuse: %s\n", verdict.c_str());
  }
  return verdict.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-diffuse")) return 0;  // before MPI or any parsing
  Options o;
  CLI::App app{"Asynchronous iterative load balancing of seismic rays or synthetic items over MPI ranks"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  add_options(app, o);
  // The thread level is needed before MPI_Init_thread: a first look at the options.
  std::string level = "single";
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--progress" && std::string(argv[i + 1]) == "thread" && level == "single")
      level = "multiple";
    if (std::string(argv[i]) == "--thread-level") level = argv[i + 1];
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, thread_level(level), &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = 0;
  try {
    app.parse(argc, argv);
    code = run(o, rank, size);
  } catch (const CLI::CallForHelp& e) {
    code = rank == 0 ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {  // one line, like every other refusal
    // No options to compare: ranks whose command line was read learn that this one failed (no hang).
    const bool everywhere = hetlb::mpi::check_options_agree(MPI_COMM_WORLD, "hetlb-diffuse", {});
    if (rank == 0 || !everywhere) std::fprintf(stderr, "hetlb-diffuse: %s (see hetlb-diffuse --help)\n", e.what());
    code = 2;
  } catch (const Agreed& e) {  // the same on every rank, printed once
    if (rank == 0) std::fprintf(stderr, "hetlb-diffuse: %s\n", e.what());
    code = 2;
  } catch (const std::exception& e) {
    if (options_agreed) {  // this rank's alone: the others would wait for it
      std::fprintf(stderr, "hetlb-diffuse: rank %d: %s; ending the job\n", rank, e.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0) std::fprintf(stderr, "hetlb-diffuse: %s\n", e.what());
    code = 2;
  }
  MPI_Finalize();
  return code;
}
