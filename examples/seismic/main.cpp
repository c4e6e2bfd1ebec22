// hetlb-seismic: the seismic ray-tracing application of RR-4770 (Section 2), reduced to a mini-app.
// The root holds the rays; `--mode uniform` distributes them with MPI_Scatter as the original code did
// (n / p each, the root keeps the remainder), `--mode hetlb` with the load-balanced scatter of hetlb_mpi
// planned from `--platform` (processor k = rank k) or, without it, from a quick calibration of the
// ranks (ray tracing timed on every rank, messages from the root: the embedded default). Every rank
// traces its rays; the results come back (hetlb: the plan's gather) and rank 0 checks every ray was
// traced exactly once against a sequential run (exit 1 otherwise). `--gantt F.png` draws the measured chart.
#include <cmath>
#include <limits>
#include <optional>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <mpi.h>

#include "hetlb/build_info.hpp"
#include "earth_model.hpp"
#include "gantt.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/mpi/option_agreement.hpp"
#include "hetlb/mpi/plan.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "measure.hpp"
#include "number_checks.hpp"
#include "ray.hpp"
#include "report.hpp"

namespace {

struct Options {
  std::string mode = "uniform";
  std::string platform;
  long long rays = 4000;
  unsigned long long seed = 1999;
  int root = 0;
  int layers = 330;
  bool emulate = false;
  bool corrupt = false;
  std::string format = "table";
  std::string gantt;
  std::string order = "bandwidth";
};

// One line on rank 0, the same exit code everywhere.
int fail_everywhere(int rank, const std::string& message, int code) {
  if (rank == 0) std::fprintf(stderr, "hetlb-seismic: %s\n", message.c_str());
  MPI_Finalize();
  return code;
}

// --emulate: rank r traces each ray round(compute_r / fastest compute) times, so a homogeneous machine
// behaves like the platform's processors. Rank 0 reads the platform; an error is returned to all.
std::vector<int> slowdowns(const std::string& path, int size, std::string& error) {
  std::vector<int> factors(static_cast<std::size_t>(size), 1);
  try {
    const hetlb::Platform platform = hetlb::io::load_platform_file(path);
    if (platform.processors.size() != static_cast<std::size_t>(size)) {
      error = path + ": " + std::to_string(platform.processors.size()) + " processors after count expansion, but " +
              std::to_string(size) + " ranks (processor k runs on rank k)";
      return factors;
    }
    double fastest = 0;
    for (const hetlb::Processor& p : platform.processors) {
      const double s = p.compute.asymptotic_slope();
      if (s > 0 && (fastest == 0 || s < fastest)) fastest = s;
    }
    for (std::size_t k = 0; k < factors.size(); ++k) {
      const double s = platform.processors[k].compute.asymptotic_slope();
      factors[k] = fastest > 0 ? std::max(1, static_cast<int>(std::lround(s / fastest))) : 1;
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  return factors;
}

// No --platform in hetlb mode: every rank times the tracing of sample rays, the root times messages
// of rays to every rank, and the fitted costs (s per ray) are the platform (hetlb-calibrate's
// measurements, a few seconds).
hetlb::Platform calibrate_ranks(const std::vector<seismic::Layer>& model, int root, MPI_Comm comm, double& seconds) {
  const std::vector<seismic::Ray> sample = seismic::generate_rays(64, 4770, model);
  hetlb::calibrate::Settings s;
  s.sizes = {8, 16, 32};
  s.comm_sizes = {100, 1000, 8000};
  s.bytes_per_item = sizeof(seismic::Ray);
  s.max_seconds = 0.1;
  s.root = root;
  const hetlb::calibrate::Kernel trace = [&](long long first, long long count) {
    for (long long i = first; i < first + count; ++i) seismic::trace(sample[static_cast<std::size_t>(i) % sample.size()], model);
    return 0;
  };
  const hetlb::calibrate::Measurements m = hetlb::calibrate::measure(trace, s, comm);
  seconds = m.seconds;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Rank 0 fits; the plan is made on the root, so the platform goes there as JSON.
  std::string text = rank == 0 ? hetlb::io::platform_to_json(hetlb::calibrate::fit_platform(m, s, "affine", "seismic-calibrated", 0)) : "";
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, comm);
  return hetlb::io::parse_platform_json(text, "calibration");
}

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-seismic")) return 0;  // before MPI or any parsing
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  Options o;
  CLI::App app{"Seismic ray tracing with MPI_Scatter or the hetlb load-balanced scatter (RR-4770, Section 2)"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.add_option("--mode", o.mode, "uniform (MPI_Scatter) or hetlb (planned scatter)")
      ->check(CLI::IsMember({"uniform", "hetlb"}));
  app.add_option("--platform", o.platform,
                 "hetlb platform JSON, processor k = rank k (hetlb mode, --emulate); hetlb mode without it calibrates first");
  app.add_option("--rays", o.rays, "number of rays")->check(CLI::Range(1LL, 100'000'000LL));
  app.add_option("--seed", o.seed, "seed of the rays")
      ->check(hetlb::cli::whole_number<unsigned long long>(0, std::numeric_limits<unsigned long long>::max()));
  app.add_option("--root", o.root, "rank holding the rays")
      ->check(hetlb::cli::whole_number<int>(0, std::numeric_limits<int>::max()));
  app.add_option("--layers", o.layers, "layers of the velocity model")->check(CLI::Range(1, 100000));
  app.add_option("--order", o.order, "hetlb send order: bandwidth (decreasing, Theorem 3) or reverse-bandwidth")
      ->check(CLI::IsMember({"bandwidth", "reverse-bandwidth"}));
  app.add_flag("--emulate", o.emulate, "trace each ray compute_r / fastest times on rank r (needs --platform)");
  app.add_flag("--corrupt", o.corrupt, "testing: falsify one result per rank so the integrity check must fail");
  app.add_option("--format", o.format, "table or json")->check(CLI::IsMember({"table", "json"}));
  app.add_option("--gantt", o.gantt, "rank 0 draws the measured Gantt chart to this .png or .svg (gnuplot)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) app.exit(e);
    MPI_Finalize();
    return 0;
  } catch (const CLI::ParseError& e) {  // one line, like every other refusal
    // No options to compare: ranks whose command line was read learn that this one failed (no hang).
    const bool everywhere = hetlb::mpi::check_options_agree(MPI_COMM_WORLD, "hetlb-seismic", {});
    if (rank == 0 || !everywhere) std::fprintf(stderr, "hetlb-seismic: %s (see hetlb-seismic --help)\n", e.what());
    MPI_Finalize();
    return 2;
  }
  // The options every rank must share (--format, --gantt: rank 0's; --corrupt: a per-rank test fault).
  if (!hetlb::mpi::check_options_agree(MPI_COMM_WORLD, "hetlb-seismic",
                                       {{"--mode", o.mode}, {"--platform", o.platform}, {"--rays", o.rays},
                                        {"--seed", o.seed}, {"--root", o.root}, {"--layers", o.layers},
                                        {"--order", o.order}, {"--emulate", o.emulate}})) {
    MPI_Finalize();
    return 2;
  }
  if (o.root < 0 || o.root >= size)
    return fail_everywhere(rank, "--root " + std::to_string(o.root) + ": expected a rank in [0, " +
                                     std::to_string(size) + ")", 2);
  if (o.emulate && o.platform.empty())
    return fail_everywhere(rank, "--platform FILE.json is required by --emulate", 2);

  // Rank 0 draws the chart after the run: its name and folder are checked before it.
  if (!o.gantt.empty()) {
    std::string why;
    if (rank == 0) try {
        seismic::check_gantt_path(o.gantt);
      } catch (const std::exception& e) {
        why = e.what();
      }
    int bad = why.empty() ? 0 : 1;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad) return fail_everywhere(rank, why, 2);
  }
  const std::vector<seismic::Layer> model = seismic::earth_model(o.layers);
  const MPI_Datatype ray_type = seismic::ray_datatype(), traced_type = seismic::traced_datatype();
  std::vector<seismic::Ray> rays;
  if (rank == o.root) rays = seismic::generate_rays(o.rays, o.seed, model);

  seismic::RunReport report;
  report.mode = o.mode;
  report.order = o.mode == "hetlb" ? o.order : "";
  report.rays = o.rays;
  report.root = o.root;

  // Heterogeneity emulation factors, scattered from rank 0.
  int slowdown = 1;
  if (o.emulate) {
    std::string error;
    std::vector<int> factors;
    if (rank == 0) factors = slowdowns(o.platform, size, error);
    int bad = error.empty() ? 0 : 1;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad) return fail_everywhere(rank, error, 2);
    MPI_Scatter(factors.data(), 1, MPI_INT, &slowdown, 1, MPI_INT, 0, MPI_COMM_WORLD);
    report.slowdown = factors;
  }

  // Planning happens before the clock starts: the run times the data distribution and the tracing.
  std::optional<hetlb::mpi::Plan> plan;
  if (o.mode == "hetlb") {
    try {
      hetlb::scatter::Request request;
      request.order = hetlb::scatter::parse_order_policy(o.order);
      if (o.platform.empty()) {
        double seconds = 0;
        const hetlb::Platform calibrated = calibrate_ranks(model, o.root, MPI_COMM_WORLD, seconds);
        if (rank == 0)
          std::fprintf(stderr,
                       "hetlb-seismic: no --platform: calibrated the %d ranks first (%.1f s: ray tracing timed on every "
                       "rank, ray messages from the root) and planned on that\n",
                       size, seconds);
        report.calibration_seconds = seconds;
        plan.emplace(calibrated, o.rays, o.root, MPI_COMM_WORLD, request);
      } else {
        plan.emplace(o.platform, o.rays, o.root, MPI_COMM_WORLD, request);
      }
    } catch (const hetlb::mpi::Error& e) {
      return fail_everywhere(rank, e.what(), 2);
    }
    report.send_order = plan->distribution().send_order;
    report.predicted_makespan = plan->distribution().predicted_makespan;
    report.gather = plan->distribution().gather_order == plan->distribution().send_order ? "send order" : "reverse send order";
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  std::vector<seismic::Ray> mine;
  if (o.mode == "hetlb") {
    mine.resize(static_cast<std::size_t>(plan->count()));
    plan->scatter(rays.data(), ray_type, mine.data(), ray_type);
  } else {
    const long long q = o.rays / size;  // as the original code: MPI_Scatter of equal shares
    mine.resize(static_cast<std::size_t>(q));
    MPI_Scatter(rays.data(), static_cast<int>(q), ray_type, mine.data(), static_cast<int>(q), ray_type, o.root,
                MPI_COMM_WORLD);
    if (rank == o.root) mine.insert(mine.end(), rays.begin() + q * size, rays.end());  // the remainder
  }
  const double received = MPI_Wtime() - start;
  std::vector<seismic::Traced> traced(mine.size());
  double last_line = MPI_Wtime();
  for (std::size_t i = 0; i < mine.size(); ++i) {
    for (int repeat = 0; repeat < slowdown; ++repeat) traced[i] = seismic::trace(mine[i], model);
    // A long run says how far it is: rank 0's share, every 5 s at most (one clock read per 4096 rays).
    if (rank == 0 && i % 4096 == 4095 && MPI_Wtime() - last_line >= 5.0) {
      last_line = MPI_Wtime();
      std::fprintf(stderr, "hetlb-seismic: rank 0 traced %zu of its %zu rays, %.0f s\n", i + 1, mine.size(),
                   last_line - start);
    }
  }
#ifdef HETLB_SMPI
  smpi_execute_flops(static_cast<double>(mine.size()));  // one flop per ray: hosts run at rays/s
#endif
  const double finished = MPI_Wtime() - start;
  if (o.corrupt && !traced.empty()) traced[0].travel_time += 1.0;

  // Times and results to rank 0.
  double times[4] = {static_cast<double>(mine.size()), received, finished - received, finished};
  std::vector<double> all_times(4 * static_cast<std::size_t>(size));
  MPI_Gather(times, 4, MPI_DOUBLE, all_times.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int mine_count = static_cast<int>(traced.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts);
  MPI_Gather(&mine_count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  long long gathered = 0;
  for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = static_cast<int>(gathered), gathered += counts[static_cast<std::size_t>(r)];
  std::vector<seismic::Traced> results(rank == 0 || (plan && rank == o.root) ? static_cast<std::size_t>(o.rays) : 0);
  if (plan) {  // the plan's gather: every result back at the root, in ray order; then to rank 0
    plan->gather(traced.data(), traced_type, results.data(), traced_type);
    if (o.root != 0 && rank == o.root) MPI_Send(results.data(), static_cast<int>(o.rays), traced_type, 0, 1, MPI_COMM_WORLD);
    if (o.root != 0 && rank == 0) MPI_Recv(results.data(), static_cast<int>(o.rays), traced_type, o.root, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Gatherv(traced.data(), mine_count, traced_type, results.data(), counts.data(), displs.data(), traced_type, 0,
                MPI_COMM_WORLD);
  }
  if (rank == 0) results.resize(static_cast<std::size_t>(gathered));

  int ok = 1;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      const double* t = &all_times[4 * static_cast<std::size_t>(r)];
      report.ranks.push_back({r, static_cast<long long>(t[0]), t[1], t[2], t[3]});
      report.makespan = std::max(report.makespan, t[3]);
    }
    // Every ray exactly once, with the value a sequential run computes (bitwise).
    const std::vector<seismic::Ray> reference = seismic::generate_rays(o.rays, o.seed, model);
    std::vector<int> seen(static_cast<std::size_t>(o.rays), 0);
    std::vector<double> time_of(static_cast<std::size_t>(o.rays), 0.0);
    for (const seismic::Traced& t : results) {
      const auto id = static_cast<long long>(t.id);
      if (id < 0 || id >= o.rays || static_cast<double>(id) != t.id) {
        report.integrity_message = "a result has no valid ray id";
        ok = 0;
        break;
      }
      ++seen[static_cast<std::size_t>(id)];
      time_of[static_cast<std::size_t>(id)] = t.travel_time;
    }
    double last_check_line = MPI_Wtime();
    for (long long i = 0; ok && i < o.rays; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (i % 4096 == 4095 && MPI_Wtime() - last_check_line >= 5.0) {
        last_check_line = MPI_Wtime();
        std::fprintf(stderr, "hetlb-seismic: checking against a sequential run, %lld of %lld rays\n", i + 1, o.rays);
      }
      const double expected = seismic::trace(reference[u], model).travel_time;
      report.sequential_checksum += expected;
      report.checksum += time_of[u];
      if (seen[u] != 1) {
        report.integrity_message = "ray " + std::to_string(i) + " traced " + std::to_string(seen[u]) + " times";
        ok = 0;
      } else if (time_of[u] != expected) {
        report.integrity_message = "ray " + std::to_string(i) + " differs from the sequential run";
        ok = 0;
      }
    }
    if (ok && gathered != o.rays) ok = 0, report.integrity_message = "wrong number of results";
    report.integrity = ok == 1;
    std::fputs((o.format == "json" ? seismic::to_json(report) + "\n" : seismic::to_table(report)).c_str(), stdout);
    std::fflush(stdout);
    if (!ok) std::fprintf(stderr, "hetlb-seismic: integrity check failed: %s\n", report.integrity_message.c_str());
    if (ok && !o.gantt.empty()) {
      try {
        seismic::render_measured_gantt(report, o.gantt);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "hetlb-seismic: --gantt %s: %s\n", o.gantt.c_str(), e.what());
        ok = 0;
      }
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  plan.reset();  // frees its communicator before MPI_Finalize
  MPI_Datatype types[2] = {ray_type, traced_type};
  for (MPI_Datatype& t : types) MPI_Type_free(&t);
  MPI_Finalize();
  return ok ? 0 : 1;
}
