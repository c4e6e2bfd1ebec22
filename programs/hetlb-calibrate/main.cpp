// hetlb-calibrate: measures Tcomp(i, x) with the user's kernel on every rank and Tcomm(i, x) from
// the root to every rank (ping-pong), fits affine models, and writes a platform file that
// `hetlb scatter` reads (RR-4770, Section 5.1: the costs "come from a series of benchmarks").
// The file keeps every measured point with its 95% confidence interval (measure.hpp).
//   mpirun -np 8 build/bin/hetlb-calibrate --output platform.json [--kernel libkernel.so]
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "hetlb/build_info.hpp"
#include "hetlb/error.hpp"
#include "hetlb/model/calibration.hpp"
#include "hetlb/mpi/option_agreement.hpp"
#include "hetlb/output_path.hpp"
#include "kernel_loader.hpp"
#include "item_sampler.hpp"
#include "measure.hpp"
#include "number_checks.hpp"

namespace {
constexpr double kMaxSyntheticCall = 1e12;  // iterations of the built-in kernel in one timed call

using namespace hetlb;

struct Options {
  std::string kernel, output, name = "calibrated", model = "affine";
  long long synthetic_work = 2000;
  long long items = 0;
  calibrate::Settings settings;
};

// Every rank's local verdict; the lowest failing rank's message reaches rank 0, which prints it.
bool agree(bool ok, const std::string& message, int rank, MPI_Comm comm) {
  int mine = ok ? INT32_MAX : rank, first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT32_MAX) return true;
  std::string text = message;
  if (first != 0) {
    if (rank == first) {
      MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, 7, comm);
    } else if (rank == 0) {
      MPI_Status st;
      int len = 0;
      MPI_Probe(first, 7, comm, &st);
      MPI_Get_count(&st, MPI_CHAR, &len);
      text.assign(static_cast<std::size_t>(len), ' ');
      MPI_Recv(text.data(), len, MPI_CHAR, first, 7, comm, MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0) std::cerr << "hetlb-calibrate: error: " << text << std::endl;
  return false;
}

int run(int argc, char** argv, int rank, int size) {
  Options o;
  calibrate::Settings& s = o.settings;
  CLI::App app{"hetlb-calibrate: measure a platform for hetlb scatter (run under mpirun)"};
  app.set_version_flag("--version", std::string(), "print the version, the commit and the versions of SimGrid, MPI and GLPK");
  app.add_option("-o,--output", o.output, "platform JSON file to write")->required();
  app.add_option("--kernel", o.kernel, "shared library exporting int hetlb_kernel(long long first, long long count)");
  app.add_option("--synthetic-work", o.synthetic_work, "iterations per item of the built-in kernel")
      ->check(hetlb::cli::whole_number<long long>(1, std::numeric_limits<long long>::max()));
  app.add_option("--sizes", s.sizes, "item counts timed with the kernel")
      ->check(hetlb::cli::whole_number<long long>(1, std::numeric_limits<long long>::max()));
  app.add_option("--comm-sizes", s.comm_sizes, "item counts sent from the root")
      ->check(hetlb::cli::whole_number<long long>(1, std::numeric_limits<long long>::max()));
  app.add_option("--bytes-per-item", s.bytes_per_item, "bytes of one item on the wire")->check(CLI::PositiveNumber);
  app.add_option("--quantile", s.quantile, "quantile of each point's timings kept (0.5: median)")->check(CLI::Range(0.01, 0.99));
  app.add_option("--relative", s.relative, "target half-width of the 95% confidence interval")->check(CLI::Range(1e-4, 1.0));
  app.add_option("--max-seconds-per-point", s.max_seconds, "time cap per measured point, all its rounds together")
      ->check(CLI::PositiveNumber);
  app.add_option("--rounds", s.rounds, "rounds of every point, interleaved (a slow spell of the machine then falls on "
                 "part of every rank's samples)")
      ->check(hetlb::cli::whole_number<int>(1, 100));
  app.add_option("--model", o.model, "affine (least squares) or table (measured points)")->check(CLI::IsMember({"affine", "table"}));
  app.add_option("--items", o.items, "item count written in the file (default: largest --sizes x ranks)")
      ->check(hetlb::cli::whole_number<long long>(0, std::numeric_limits<long long>::max()));
  app.add_option("--sample-range", s.sample_range,
                 "time items across 0..N-1 (each timing from a random first item); default --items, else the first items")
      ->check(hetlb::cli::whole_number<long long>(0, std::numeric_limits<long long>::max()));
  app.add_option("--seed", s.seed, "seed of the items timed with --sample-range (default 1)")
      ->check(hetlb::cli::whole_number<unsigned long long>(0, std::numeric_limits<unsigned long long>::max()));
  app.add_option("--root", s.root, "rank holding the data")
      ->check(hetlb::cli::whole_number<int>(0, std::numeric_limits<int>::max()));
  app.add_option("--name", o.name, "platform name");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    // No options to compare: ranks whose command line was read learn that this one failed (no hang).
    const bool everywhere = mpi::check_options_agree(MPI_COMM_WORLD, "hetlb-calibrate", {});
    if (rank == 0 || !everywhere) std::cerr << "hetlb-calibrate: error: " << e.what() << std::endl;
    return 2;
  }
  // The options every rank must share (--output, --name, --model, --items: rank 0 writes the file).
  if (!mpi::check_options_agree(MPI_COMM_WORLD, "hetlb-calibrate",
                                {{"--kernel", o.kernel}, {"--synthetic-work", o.synthetic_work}, {"--sizes", s.sizes},
                                 {"--comm-sizes", s.comm_sizes}, {"--bytes-per-item", s.bytes_per_item},
                                 {"--quantile", s.quantile}, {"--relative", s.relative},
                                 {"--max-seconds-per-point", s.max_seconds}, {"--rounds", s.rounds}, {"--root", s.root},
                                 {"--sample-range", s.sample_range}, {"--seed", s.seed}}))
    return 2;
  // The items timed: across the program's items when their count is known (item_sampler.hpp).
  if (s.sample_range == 0 && o.items > 0) s.sample_range = o.items;
  if (!agree(s.root < size, fmt::format("--root {}: expected a rank below {}", s.root, size), rank, MPI_COMM_WORLD))
    return 2;
  if (!agree(std::isfinite(s.bytes_per_item) && s.bytes_per_item > 0,
             fmt::format("--bytes-per-item {}: expected a positive number of bytes", s.bytes_per_item), rank,
             MPI_COMM_WORLD))
    return 2;
  if (!agree(std::isfinite(s.max_seconds) && s.max_seconds > 0,
             fmt::format("--max-seconds-per-point {}: expected a positive number of seconds", s.max_seconds), rank,
             MPI_COMM_WORLD))
    return 2;
  // Compared as doubles: 1e300 bytes per item converted to an integer count was undefined.
  const double max_bytes =
      s.bytes_per_item * static_cast<double>(*std::max_element(s.comm_sizes.begin(), s.comm_sizes.end()));
  if (!agree(max_bytes < INT32_MAX, fmt::format("--comm-sizes: {:g} bytes in one message, expected below 2^31", max_bytes),
             rank, MPI_COMM_WORLD))
    return 2;
  // A timed call runs to its end, past --max-seconds-per-point: the built-in kernel's largest call is
  // bounded (1e12 iterations, about 1000 s).
  const double max_work =
      static_cast<double>(o.synthetic_work) * static_cast<double>(*std::max_element(s.sizes.begin(), s.sizes.end()));
  if (!agree(!o.kernel.empty() || max_work <= kMaxSyntheticCall,
             fmt::format("--synthetic-work {} x --sizes up to {}: {:g} iterations in one timed call; expected at most "
                         "{:g} (a call is never cut short)",
                         o.synthetic_work, *std::max_element(s.sizes.begin(), s.sizes.end()), max_work,
                         kMaxSyntheticCall),
             rank, MPI_COMM_WORLD))
    return 2;
  // The platform file is written by rank 0 after the measurements: its path is checked before them, and
  // is never the kernel's (output_path.hpp: the transaction holds the command's inputs and outputs).
  hetlb::OutputTransaction outputs;
  std::string unwritable;
  if (rank == 0) try {
      check_writable("--output", o.output);
    } catch (const Error& e) {
      unwritable = e.what();
    }
  if (!agree(unwritable.empty(), unwritable, rank, MPI_COMM_WORLD)) return 1;
  calibrate::Kernel kernel;
  std::string why;
  try {
    kernel = o.kernel.empty() ? calibrate::synthetic_kernel(o.synthetic_work) : calibrate::load_kernel(o.kernel);
  } catch (const Error& e) {
    why = e.what();
  }
  if (!agree(why.empty(), why, rank, MPI_COMM_WORLD)) return 1;

  const calibrate::Measurements m = calibrate::measure(kernel, s, MPI_COMM_WORLD);
  if (!agree(!m.kernel_failed, fmt::format("rank {}: the kernel returned an error", rank), rank, MPI_COMM_WORLD)) return 1;

  std::string write_error;
  if (rank == 0) {
    if (m.waves > 1)
      std::cerr << fmt::format("hetlb-calibrate: warning: {} ranks on {} cores of one node: compute timings taken in {} "
                               "turns, one rank at a time; ranks sharing cores in a real run will be slower than measured\n",
                               m.busiest_node_ranks, m.busiest_node_cores, m.waves);
    int loose = 0, points = 0;
    for (const auto* table : {&m.compute, &m.comm})
      for (std::size_t r = 0; r < table->size(); ++r)
        for (const calibrate::Point& p : (*table)[r])
          if (p.samples > 0) ++points, loose += p.converged ? 0 : 1;
    if (loose > 0)
      std::cerr << fmt::format("hetlb-calibrate: warning: {} of {} points did not reach a 95% confidence interval within "
                               "{:.0f}% before --max-seconds-per-point ({} s); the file keeps each interval\n",
                               loose, points, 100 * s.relative, s.max_seconds);
    try {
      const Platform pf = calibrate::fit_platform(m, s, o.model, o.name, o.items);
      const auto [smallest, largest] = std::minmax_element(s.sizes.begin(), s.sizes.end());
      std::vector<int> flat;
      for (int r = 0; r < size; ++r)
        if (!grows_with_items(pf.processors[static_cast<std::size_t>(r)].compute, static_cast<double>(*smallest),
                              static_cast<double>(*largest)))
          flat.push_back(r);
      if (!flat.empty())
        std::cerr << fmt::format("hetlb-calibrate: warning: rank(s) {}: the kernel's time does not grow from {} to {} "
                                 "items (cost per item 0): a plan takes their items as free; use larger --sizes\n",
                                 fmt::join(flat, ", "), *smallest, *largest);
      std::cout << fmt::format("{:<8} {:>14} {:>10} {:>14} {:>10}\n", "rank", "comp per item", "ci95", "comm per item", "ci95");
      for (int r = 0; r < size; ++r) {
        const auto ru = static_cast<std::size_t>(r);
        const calibrate::Point& c = m.compute[ru].back();
        const calibrate::Point& l = m.comm[ru].back();
        std::cout << fmt::format("{:<8} {:>14.6g} {:>9.1f}% {:>14.6g} {:>9.1f}%\n", r,
                                 pf.processors[ru].compute.asymptotic_slope(), c.mean > 0 ? 100 * c.half_width / c.mean : 0.0,
                                 pf.processors[ru].comm.asymptotic_slope(), l.mean > 0 ? 100 * l.half_width / l.mean : 0.0);
      }
      std::cout << "items timed: " << calibrate::ItemSampler(s.sample_range, s.seed).describe() << "\n";
      hetlb::write_file("--output", o.output, calibrate::platform_json_with_measurements(pf, m, s));
      outputs.commit();
      std::cerr << fmt::format("wrote {} ({} processors, items {}, {:.1f} s of measurements)\n", o.output, size, pf.items,
                               m.seconds);
    } catch (const Error& e) {
      write_error = e.what();
    }
  }
  return agree(write_error.empty(), write_error, rank, MPI_COMM_WORLD) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-calibrate")) return 0;  // before MPI or any parsing
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rc = run(argc, argv, rank, size);
  MPI_Finalize();
  return rc;
}
