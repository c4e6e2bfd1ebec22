// The bulk-synchronous mode in a program that calls a collective every iteration (docs/runtime.md):
//   hetlb-mpi-diffusion-bsp-check --initial single|random --progress calls|thread
//                                 --collective allreduce|allgatherv [--stop-at N] [--seed S]
// Every iteration each rank processes its items once (a counter in the item), calls iteration_done(),
// then the program's own collective: MPI_Allreduce of (items held, sum of ids, sum of squared ids,
// ranks still running) or MPI_Allgatherv of every id held. Checked at every iteration: every item is
// held by exactly one rank (count and id sums, or every id exactly once), and every rank got the same
// answer from iteration_done() (the run ends at the same iteration everywhere). At the end every item
// was processed exactly once per iteration, and its payload is intact. A rank that waited for load, or
// ranks that ended at different iterations, would hang in the collective: the test runs under a timeout.
// With --stop-at N the program ends the run itself: convergence does not end it, and every rank calls
// stop() after iteration N (its own collective carries the decision). Exit 0 when every check passes.
// With --speeds a,b,c,d (balanced by time, speeds measured, 60 items per rank, --iterations N in the
// band to converge, --tolerance T) rank r's computing takes items x 40 us / speed_r (slept, and passed to
// iteration_done(seconds)); checked at the end: the fastest rank holds at least 1.5 times the items
// of the slowest (a run that converged before measuring would end with equal counts).
// With --moved-by N (single loaded rank): rank 0 must have handed items over by iteration N.
// Misuse: --skip R:N, rank R skips its iteration_done() call of iteration N; --extra R:N, it calls twice.
// The runtime must then end the job with one line naming the ranks and the calls (it used to hang).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <random>
#include <thread>
#include <string>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
struct Item {
  std::uint64_t id, square, processed;
};

int fail(int rank, long iteration, const std::string& what) {
  std::fprintf(stderr, "bsp-check: rank %d, iteration %ld: %s\n", rank, iteration, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  std::string initial = "single", progress = "calls", collective = "allreduce", speeds_text;
  long stop_at = 0, iterations = 5, misuse_rank = -1, misuse_at = 0, moved_by = 0;
  double tolerance = 0.01;
  bool extra = false;
  unsigned seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--initial") initial = v;
    else if (a == "--progress") progress = v;
    else if (a == "--collective") collective = v;
    else if (a == "--stop-at") stop_at = std::atol(v.c_str());
    else if (a == "--seed") seed = static_cast<unsigned>(std::atoi(v.c_str()));
    else if (a == "--speeds") speeds_text = v;
    else if (a == "--iterations") iterations = std::atol(v.c_str());
    else if (a == "--moved-by") moved_by = std::atol(v.c_str());
    else if (a == "--tolerance") tolerance = std::atof(v.c_str());
    else if (a == "--skip" || a == "--extra") {
      extra = a == "--extra";
      misuse_rank = std::atol(v.c_str());
      misuse_at = std::atol(v.substr(v.find(':') + 1).c_str());
    }
  }
  std::vector<double> speeds;  // emulated, not told to the runtime
  for (std::size_t at = 0; !speeds_text.empty() && at != std::string::npos;) {
    speeds.push_back(std::atof(speeds_text.c_str() + at));
    at = speeds_text.find(',', at);
    if (at != std::string::npos) ++at;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Initial items: all on rank 0, or a random count per rank (the same draw on every rank).
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(size), 0);
  std::mt19937 draw(seed);
  for (int r = 0; r < size; ++r)
    counts[static_cast<std::size_t>(r)] = initial == "single"  ? (r == 0 ? 60u * static_cast<unsigned>(size) : 0u)
                                          : initial == "equal" ? 60u
                                                               : draw() % 120;
  std::uint64_t total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) first = total;
    total += counts[static_cast<std::size_t>(r)];
  }

  hetlb::mpi::DiffusionOptions o;  // topology "auto": a torus on 4 ranks
  o.bulk_synchronous = true;
  o.progress_thread = progress == "thread";
  o.balance = speeds.empty() ? "load" : "time";
  o.integer = true;
  o.iterations = iterations;
  o.tolerance = tolerance;
  o.min_balancing_period = 0.002;
  o.time_limit = 30;
  o.end_on_convergence = stop_at == 0;
  int code = 0;
  {
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(Item));
    for (std::uint64_t id = first; id < first + counts[static_cast<std::size_t>(rank)]; ++id) {
      const Item item{id, id * id, 0};
      lb.add(id, &item);
    }
    lb.start();
    long iteration = 0;
    bool running = true;
    while (running) {
      ++iteration;
      for (std::size_t i = 0; i < lb.size(); ++i) {
        auto* item = static_cast<Item*>(lb.item(i));
        if (item->id != lb.id(i) || item->square != item->id * item->id) return fail(rank, iteration, "payload differs");
        ++item->processed;
      }
      const double t0 = MPI_Wtime();
      if (speeds.empty())
        std::this_thread::sleep_for(std::chrono::microseconds(300));  // the iteration's computing, emulated
      else if (lb.size() > 0)
        std::this_thread::sleep_for(std::chrono::duration<double>(
            40e-6 * static_cast<double>(lb.size()) / speeds.at(static_cast<std::size_t>(rank))));
      const double seconds = MPI_Wtime() - t0;
      const bool misused = rank == misuse_rank && iteration == misuse_at;
      if (misused && extra) lb.iteration_done();
      if (misused && !extra)
        running = true;
      else
        running = speeds.empty() ? lb.iteration_done() : lb.iteration_done(seconds);
      if (stop_at > 0 && iteration == stop_at) running = false;
      if (rank == 0 && iteration == moved_by && lb.size() == counts[0])
        return fail(rank, iteration, "no item handed over yet (--moved-by)");
      if (collective == "allreduce") {
        // The items held after the call (some may have moved in it).
        std::uint64_t mine[4] = {lb.size(), 0, 0, running ? 1u : 0u}, all[4];
        for (std::size_t i = 0; i < lb.size(); ++i) mine[1] += lb.id(i), mine[2] += lb.id(i) * lb.id(i);
        MPI_Allreduce(mine, all, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        std::uint64_t sum = 0, squares = 0;
        for (std::uint64_t id = 0; id < total; ++id) sum += id, squares += id * id;
        if (all[0] != total || all[1] != sum || all[2] != squares)
          return fail(rank, iteration, "items held after iteration_done(): " + std::to_string(all[0]) + " of " +
                                           std::to_string(total) + " (or id sums differ)");
        if (all[3] != 0 && all[3] != static_cast<std::uint64_t>(size))
          return fail(rank, iteration, "iteration_done() returned false on some ranks only");
      } else {
        std::vector<std::uint64_t> held;
        for (std::size_t i = 0; i < lb.size(); ++i) held.push_back(lb.id(i));
        held.push_back(running ? 1 : 0);  // last entry: still running
        int n = static_cast<int>(held.size());
        std::vector<int> ns(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
        MPI_Allgather(&n, 1, MPI_INT, ns.data(), 1, MPI_INT, MPI_COMM_WORLD);
        int at = 0;
        for (int r = 0; r < size; ++r) displs[static_cast<std::size_t>(r)] = at, at += ns[static_cast<std::size_t>(r)];
        std::vector<std::uint64_t> every(static_cast<std::size_t>(at));
        MPI_Allgatherv(held.data(), n, MPI_UINT64_T, every.data(), ns.data(), displs.data(), MPI_UINT64_T,
                       MPI_COMM_WORLD);
        std::vector<int> seen(total, 0);
        int still = 0;
        for (int r = 0; r < size; ++r) {
          const int from = displs[static_cast<std::size_t>(r)], count = ns[static_cast<std::size_t>(r)];
          still += static_cast<int>(every[static_cast<std::size_t>(from + count - 1)]);
          for (int k = from; k < from + count - 1; ++k) {
            const std::uint64_t id = every[static_cast<std::size_t>(k)];
            if (id >= total || seen[id]++) return fail(rank, iteration, "id " + std::to_string(id) + " held twice or unknown");
          }
        }
        for (std::uint64_t id = 0; id < total; ++id)
          if (!seen[id]) return fail(rank, iteration, "id " + std::to_string(id) + " held by no rank");
        if (still != 0 && still != size) return fail(rank, iteration, "iteration_done() returned false on some ranks only");
      }
    }
    if (stop_at > 0) lb.stop();
    // Every item processed once per iteration, wherever it was.
    for (std::size_t i = 0; i < lb.size(); ++i) {
      const auto* item = static_cast<const Item*>(lb.item(i));
      if (item->processed != static_cast<std::uint64_t>(iteration))
        return fail(rank, iteration,
                    "item " + std::to_string(item->id) + " processed " + std::to_string(item->processed) + " times");
    }
    long lo = 0, hi = 0;
    MPI_Allreduce(&iteration, &lo, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&iteration, &hi, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (lo != hi) return fail(rank, iteration, "ranks ended at different iterations");
    const hetlb::diffusion::Metrics m = lb.metrics();
    if (rank == 0)
      std::printf("bsp-check: %s, %s, %s: ended at iteration %ld on every rank (%s), %.0f items moved, %s\n",
                  initial.c_str(), progress.c_str(), collective.c_str(), iteration, lb.topology().c_str(),
                  m.data_transfer_amount * static_cast<double>(total), m.converged ? "converged" : "not converged");
    if (stop_at == 0 && !m.converged) code = fail(rank, iteration, "ended without converging (time limit?)");
    if (stop_at > 0 && iteration != stop_at) code = fail(rank, iteration, "did not stop at --stop-at");
    if (initial == "single" && size > 1 && !(m.data_transfer_amount > 0)) code = fail(rank, iteration, "no item moved");
    if (!speeds.empty()) {  // the fastest rank holds more than the slowest
      const double n = static_cast<double>(lb.size());
      const int fastest = static_cast<int>(std::max_element(speeds.begin(), speeds.end()) - speeds.begin());
      const int slowest = static_cast<int>(std::min_element(speeds.begin(), speeds.end()) - speeds.begin());
      double held[2] = {0, 0};  // items of the slowest, of the fastest
      const double own[2] = {rank == slowest ? n : 0, rank == fastest ? n : 0};
      MPI_Allreduce(own, held, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (rank == 0) std::printf("bsp-check: items of the slowest rank %.0f, of the fastest %.0f\n", held[0], held[1]);
      if (!(held[1] >= 1.5 * held[0]))
        code = fail(rank, iteration, "the fastest rank does not hold 1.5 times the items of the slowest");
    }
  }
  MPI_Finalize();
  return code;
}
