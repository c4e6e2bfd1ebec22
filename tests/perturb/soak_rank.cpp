// The rank program of the soak's kill runs (tests/perturb/soak.sh; issue 65, item 7):
//
//   hetlb-soak-rank --mode bsp|async --calls N --log DIR [--items-per-rank K] [--progress calls|thread]
//                   [--seed S] [--work-us U]
//
// Runs the diffusion runtime for N iteration_done() calls (end_on_convergence off, then stop()), items
// starting on the ranks in seeded random counts (K per rank on average). Each item carries its id, a
// check word derived from it and how many times it was processed; every call each rank checks every item
// it holds, spends U microseconds of computing on each (a busy loop), and counts it processed.
//
// Each rank writes DIR/rank-R.log with one write(2) per line, so a line is in the file as soon as it is
// written, even if the rank is killed the next instant:
//   start R SIZE PID TOTAL IDSUM      once, after start()
//   c CALL ITEMS IDSUM BAD            after each iteration_done() call: items held, sum of their ids
//                                     (mod 2^64), items whose check word was wrong
//   end R                             after stop() and the final check
// In the bulk-synchronous mode every item is held by exactly one rank between calls, so at every call
// the ranks' ITEMS sum to TOTAL and their IDSUMs to the start's IDSUM: soak.sh checks it for every call
// each rank logged before the kill ("nothing lost before the kill"). In the asynchronous mode items may be
// in flight between calls; the per-call lines then show only each rank's own checks (BAD = 0).
// At the end rank 0 gathers every id: each exactly once, and prints one line "soak-rank: ok ..." (exit 0),
// or one line naming the problem (exit 1).
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {

struct Item {
  std::uint64_t id, check, processed;
};

std::uint64_t check_word(std::uint64_t id) {  // splitmix64 of the id
  std::uint64_t z = id + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void write_line(int fd, const std::string& line) {
  const ssize_t n = ::write(fd, line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size())) {
    std::perror("soak-rank: write");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

void spin(double microseconds) {  // computing, not sleeping: the rank competes for its core
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(microseconds);
  volatile double x = 1;
  while (std::chrono::steady_clock::now() < until)
    for (int i = 0; i < 64; ++i) x = std::sqrt(x + 1.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "bsp", progress = "calls", log_dir;
  long calls = 10000, per_rank = 40;
  unsigned long seed = 1;
  double work_us = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--mode") mode = v;
    else if (a == "--calls") calls = std::atol(v.c_str());
    else if (a == "--log") log_dir = v;
    else if (a == "--items-per-rank") per_rank = std::atol(v.c_str());
    else if (a == "--progress") progress = v;
    else if (a == "--seed") seed = std::strtoul(v.c_str(), nullptr, 10);
    else if (a == "--work-us") work_us = std::atof(v.c_str());
    else {
      std::fprintf(stderr, "soak-rank: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (log_dir.empty() || (mode != "bsp" && mode != "async") || calls < 1 || per_rank < 1) {
    std::fprintf(stderr, "usage: hetlb-soak-rank --mode bsp|async --calls N --log DIR [--items-per-rank K] "
                         "[--progress calls|thread] [--seed S] [--work-us U]\n");
    return 2;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string path = log_dir + "/rank-" + std::to_string(rank) + ".log";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
  if (fd < 0) {
    std::perror(path.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  // Seeded random counts per rank (the same draw on every rank), ids in blocks.
  std::mt19937_64 draw(seed);
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(size));
  for (auto& c : counts) c = draw() % static_cast<std::uint64_t>(2 * per_rank + 1);
  std::uint64_t first = 0, total = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) first = total;
    total += counts[static_cast<std::size_t>(r)];
  }

  hetlb::mpi::DiffusionOptions o;
  o.bulk_synchronous = mode == "bsp";
  o.progress_thread = progress == "thread";
  o.end_on_convergence = false;  // N calls, then stop()
  o.min_balancing_period = 0.002;
  o.iterations = 8;
  o.balance = "load";  // busy cores make measured speeds noise; load keeps the loads moving for a reason
  hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(Item));
  for (std::uint64_t id = first; id < first + counts[static_cast<std::size_t>(rank)]; ++id) {
    const Item item{id, check_word(id), 0};
    lb.add(id, &item);
  }
  lb.start();
  std::uint64_t idsum_all = 0;
  for (std::uint64_t id = 0; id < total; ++id) idsum_all += id;
  char line[160];
  std::snprintf(line, sizeof line, "start %d %d %ld %llu %llu\n", rank, size, static_cast<long>(::getpid()),
                static_cast<unsigned long long>(total), static_cast<unsigned long long>(idsum_all));
  write_line(fd, line);

  long bad_total = 0;
  for (long call = 1; call <= calls; ++call) {
    const auto from = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < lb.size(); ++i) {
      auto* item = static_cast<Item*>(lb.item(i));
      if (item->id != lb.id(i) || item->check != check_word(item->id)) ++bad_total;
      spin(work_us);
      ++item->processed;
    }
    lb.iteration_done(std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count());
    std::uint64_t idsum = 0;
    for (std::size_t i = 0; i < lb.size(); ++i) idsum += lb.id(i);
    std::snprintf(line, sizeof line, "c %ld %zu %llu %ld\n", call, lb.size(), static_cast<unsigned long long>(idsum),
                  bad_total);
    write_line(fd, line);
  }
  lb.stop();

  // Every id exactly once, every check word intact.
  std::vector<std::uint64_t> mine;
  for (std::size_t i = 0; i < lb.size(); ++i) {
    const auto* item = static_cast<const Item*>(lb.item(i));
    if (item->check != check_word(item->id)) ++bad_total;
    mine.push_back(lb.id(i));
  }
  int n = static_cast<int>(mine.size());
  std::vector<int> all_counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  MPI_Gather(&n, 1, MPI_INT, all_counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int sum = 0;
  for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = sum, sum += all_counts[static_cast<std::size_t>(r)];
  std::vector<std::uint64_t> ids(rank == 0 ? static_cast<std::size_t>(sum) : 0);
  MPI_Gatherv(mine.data(), n, MPI_UINT64_T, ids.data(), all_counts.data(), displs.data(), MPI_UINT64_T, 0,
              MPI_COMM_WORLD);
  long bad_everywhere = 0;
  MPI_Reduce(&bad_total, &bad_everywhere, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int code = 0;
  if (rank == 0) {
    std::vector<char> seen(total, 0);
    std::string problem;
    if (ids.size() != total) problem = "conservation: " + std::to_string(ids.size()) + " items at the end, " +
                                       std::to_string(total) + " at the start";
    for (std::uint64_t id : ids) {
      if (!problem.empty()) break;
      if (id >= total || seen[id]++) problem = "item id " + std::to_string(id) + " out of range or held twice";
    }
    if (problem.empty() && bad_everywhere > 0) problem = std::to_string(bad_everywhere) + " items with a bad check word";
    if (problem.empty()) {
      std::printf("soak-rank: ok, %s mode, %d ranks, %ld calls, %llu items, every id once, every check word intact\n",
                  mode.c_str(), size, calls, static_cast<unsigned long long>(total));
    } else {
      std::printf("soak-rank: %s\n", problem.c_str());
      code = 1;
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::snprintf(line, sizeof line, "end %d\n", rank);
  write_line(fd, line);
  ::close(fd);
  MPI_Finalize();
  return code;
}
