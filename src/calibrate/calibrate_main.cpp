// hetlb-calibrate: measures Tcomp(i, x) with the user's kernel on every rank and Tcomm(i, x) from
// the root to every rank (ping-pong), fits affine models, and writes a platform file that
// `hetlb scatter` reads (RR-4770, Section 5.1: the costs "come from a series of benchmarks").
//   mpirun -np 8 build/bin/hetlb-calibrate --output platform.json [--kernel libkernel.so]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/model/calibration.hpp"
#include "kernel_loader.hpp"

namespace {

using namespace hetlb;

struct Options {
  std::string kernel, output, name = "calibrated", model = "affine";
  long long synthetic_work = 2000;
  std::vector<long long> sizes{500, 1000, 2000, 4000};
  std::vector<long long> comm_sizes{1000, 10000, 100000};
  double bytes_per_item = 8, relative = 0.05, max_seconds = 1.0;
  long long items = 0;
  int root = 0;
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

// Mean time of f(), repeated until the 95% confidence interval is within `relative` or the cap.
template <class F>
SampleStats time_point(F&& f, const Options& o) {
  SampleStats s;
  const double start = MPI_Wtime();
  do {
    const double t0 = MPI_Wtime();
    f();
    s.add(MPI_Wtime() - t0);
  } while (!s.tight(o.relative, 3) && MPI_Wtime() - start < o.max_seconds);
  return s;
}

// Root side of a ping-pong round with `peer`: `bytes` out, one byte back.
double ping(std::vector<char>& buf, long long bytes, int peer, MPI_Comm comm) {
  const double t0 = MPI_Wtime();
  MPI_Send(buf.data(), static_cast<int>(bytes), MPI_CHAR, peer, 1, comm);
  MPI_Recv(buf.data(), 1, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE);
  return MPI_Wtime() - t0;
}

// Peer side: answers rounds until the root sends the stop tag.
void pong(std::vector<char>& buf, int root, MPI_Comm comm) {
  while (true) {
    MPI_Status st;
    MPI_Probe(root, MPI_ANY_TAG, comm, &st);
    int len = 0;
    MPI_Get_count(&st, MPI_CHAR, &len);
    if (static_cast<std::size_t>(len) > buf.size()) buf.resize(static_cast<std::size_t>(len));
    MPI_Recv(buf.data(), len, MPI_CHAR, root, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == 2) return;
    MPI_Send(buf.data(), 1, MPI_CHAR, root, 1, comm);
  }
}

int run(int argc, char** argv, int rank, int size) {
  Options o;
  CLI::App app{"hetlb-calibrate: measure a platform for hetlb scatter (run under mpirun)"};
  app.add_option("-o,--output", o.output, "platform JSON file to write")->required();
  app.add_option("--kernel", o.kernel, "shared library exporting int hetlb_kernel(long long first, long long count)");
  app.add_option("--synthetic-work", o.synthetic_work, "iterations per item of the built-in kernel")->check(CLI::PositiveNumber);
  app.add_option("--sizes", o.sizes, "item counts timed with the kernel")->check(CLI::PositiveNumber);
  app.add_option("--comm-sizes", o.comm_sizes, "item counts sent from the root")->check(CLI::PositiveNumber);
  app.add_option("--bytes-per-item", o.bytes_per_item, "bytes of one item on the wire")->check(CLI::PositiveNumber);
  app.add_option("--relative", o.relative, "target half-width of the 95% confidence interval")->check(CLI::Range(1e-4, 1.0));
  app.add_option("--max-seconds-per-point", o.max_seconds, "time cap per measured point")->check(CLI::PositiveNumber);
  app.add_option("--model", o.model, "affine (least squares) or table (measured points)")->check(CLI::IsMember({"affine", "table"}));
  app.add_option("--items", o.items, "default item count written in the file")->check(CLI::NonNegativeNumber);
  app.add_option("--root", o.root, "rank holding the data")->check(CLI::NonNegativeNumber);
  app.add_option("--name", o.name, "platform name");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (rank == 0) app.exit(e);
    return 0;
  } catch (const CLI::ParseError& e) {
    if (rank == 0) std::cerr << "hetlb-calibrate: error: " << e.what() << std::endl;
    return 2;
  }
  if (!agree(o.root < size, fmt::format("--root {}: expected a rank below {}", o.root, size), rank, MPI_COMM_WORLD))
    return 2;
  // The kernel, on every rank.
  calibrate::Kernel kernel;
  std::string why;
  try {
    kernel = o.kernel.empty() ? calibrate::synthetic_kernel(o.synthetic_work) : calibrate::load_kernel(o.kernel);
  } catch (const Error& e) {
    why = e.what();
  }
  if (!agree(why.empty(), why, rank, MPI_COMM_WORLD)) return 1;

  // Tcomp: every rank times its kernel (ranks sharing a machine measure what they will really get).
  std::vector<double> comp(o.sizes.size());
  bool kernel_ok = true;
  for (std::size_t k = 0; k < o.sizes.size(); ++k) {
    comp[k] = time_point([&] { kernel_ok = kernel_ok && kernel(0, o.sizes[k]) == 0; }, o).mean();
    if (rank == 0) std::cerr << fmt::format("[compute] {} items: {:.6g} s\n", o.sizes[k], comp[k]);
  }
  if (!agree(kernel_ok, fmt::format("rank {}: the kernel returned an error", rank), rank, MPI_COMM_WORLD)) return 1;
  std::vector<double> all_comp(rank == 0 ? comp.size() * static_cast<std::size_t>(size) : 0);
  MPI_Gather(comp.data(), static_cast<int>(comp.size()), MPI_DOUBLE, all_comp.data(), static_cast<int>(comp.size()),
             MPI_DOUBLE, 0, MPI_COMM_WORLD);

  // Tcomm: the root pings every other rank in turn; a transfer is a round trip less half of the
  // one-byte round trip (the answer).
  const long long max_bytes = static_cast<long long>(o.bytes_per_item * static_cast<double>(
      *std::max_element(o.comm_sizes.begin(), o.comm_sizes.end())));
  if (!agree(max_bytes < INT32_MAX, fmt::format("--comm-sizes: {} bytes in one message, expected below 2^31", max_bytes),
             rank, MPI_COMM_WORLD))
    return 2;
  std::vector<char> buf(static_cast<std::size_t>(std::max<long long>(max_bytes, 1)));
  std::vector<double> comm(o.comm_sizes.size() * static_cast<std::size_t>(size), 0.0);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == o.root) continue;
    if (rank == o.root) {
      const double answer = time_point([&] { ping(buf, 1, peer, MPI_COMM_WORLD); }, o).mean() / 2;
      for (std::size_t k = 0; k < o.comm_sizes.size(); ++k) {
        const long long bytes = static_cast<long long>(o.bytes_per_item * static_cast<double>(o.comm_sizes[k]));
        const double rtt = time_point([&] { ping(buf, bytes, peer, MPI_COMM_WORLD); }, o).mean();
        comm[static_cast<std::size_t>(peer) * o.comm_sizes.size() + k] = std::max(0.0, rtt - answer);
      }
      MPI_Send(buf.data(), 0, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
      std::cerr << fmt::format("[comm] rank {} measured\n", peer);
    } else if (rank == peer) {
      pong(buf, o.root, MPI_COMM_WORLD);
    }
  }
  if (o.root != 0) {  // rank 0 writes the file
    if (rank == o.root) MPI_Send(comm.data(), static_cast<int>(comm.size()), MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
    if (rank == 0) MPI_Recv(comm.data(), static_cast<int>(comm.size()), MPI_DOUBLE, o.root, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }

  // Fit and write, on rank 0.
  std::string write_error;
  if (rank == 0) {
    try {
      Platform pf;
      pf.name = o.name;
      pf.items = o.items;
      pf.root = static_cast<std::size_t>(o.root);
      std::cout << fmt::format("{:<8} {:>14} {:>14} {:>8} {:>14} {:>14} {:>8}\n", "rank", "comp latency",
                               "comp per item", "r2", "comm latency", "comm per item", "r2");
      for (int r = 0; r < size; ++r) {
        std::vector<std::pair<double, double>> cp, mp;
        for (std::size_t k = 0; k < o.sizes.size(); ++k)
          cp.emplace_back(static_cast<double>(o.sizes[k]), all_comp[static_cast<std::size_t>(r) * o.sizes.size() + k]);
        for (std::size_t k = 0; k < o.comm_sizes.size(); ++k)
          mp.emplace_back(static_cast<double>(o.comm_sizes[k]), comm[static_cast<std::size_t>(r) * o.comm_sizes.size() + k]);
        const AffineFit fc = fit_affine(cp);
        const AffineFit fm = r == o.root ? AffineFit{} : fit_affine(mp);
        Processor p;
        p.name = fmt::format("rank-{}", r);
        p.compute = o.model == "table" ? table_from_points(cp) : fc.cost();
        p.comm = r == o.root ? CostFunction::linear(0) : (o.model == "table" ? table_from_points(mp) : fm.cost());
        pf.processors.push_back(p);
        std::cout << fmt::format("{:<8} {:>14.6g} {:>14.6g} {:>8.4f} {:>14.6g} {:>14.6g} {:>8.4f}\n", r, fc.latency,
                                 fc.per_item, fc.r2, fm.latency, fm.per_item, fm.r2);
      }
      const std::string text = io::platform_to_json(pf);
      namespace fs = std::filesystem;
      const fs::path target = fs::absolute(o.output);
      const fs::path tmp = target.parent_path() / ("." + target.filename().string() + ".tmp");
      std::ofstream out(tmp);
      if (!out || !(out << text) || !(out.flush())) throw Error(fmt::format("{}: cannot write the platform file", o.output));
      out.close();
      std::error_code ec;
      fs::rename(tmp, target, ec);
      if (ec) {
        fs::remove(tmp, ec);
        throw Error(fmt::format("{}: cannot write the platform file", o.output));
      }
      std::cerr << fmt::format("wrote {} ({} processors)\n", o.output, size);
    } catch (const Error& e) {
      write_error = e.what();
    }
  }
  return agree(write_error.empty(), write_error, rank, MPI_COMM_WORLD) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rc = run(argc, argv, rank, size);
  MPI_Finalize();
  return rc;
}
