// Global steps in a bulk-synchronous program (docs/runtime.md, "Global steps"):
//   hetlb-mpi-diffusion-global-check --balancer global|hybrid --speeds 1,1,0.5,0.25 [--progress calls|thread]
//                                    [--initial random|slowest|alone] [--balanced-by N] [--total N] [--seed S]
//                                    [--noise F --max-handover-items N] [--tolerance T (0.1)] [--stop-at N]
//                                    [--start-step 1]
// Rank r's computing takes items x 100 us / speed_r (slept, and passed to iteration_done: the speeds
// are emulated, not told to the runtime, which measures them from those seconds). Every iteration the program
// calls MPI_Allreduce of (items held, sum of ids, sum of squared ids, ranks still running): every item is
// held by exactly one rank after every call, and every rank ends at the same call. Checked: the run
// converges; the iteration-time imbalance (max over ranks of items / speed, over the total / the sum of
// the speeds) falls within 1.15 by iteration --balanced-by; at least one global step was taken, each
// reported with its call, gain > cost and the items it moved; every item was processed once per
// iteration and its payload is intact. With --noise F each rank reports its seconds times a factor drawn
// uniformly in [1 - F, 1 + F] every call (measured speeds as noisy as a shared machine's), and the items
// moved by hand-overs (all moved less the global steps') must be at most N: diffusion between the steps
// must not chase the noise. With --stop-at N the program ends the run after N iterations (convergence
// does not end it, and is not required). --initial alone: every item on the slowest rank, none elsewhere;
// --start-step 1: the option start_step, and the first step must be the start step (call 0) and move
// items. Exit 0 when every check passes.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "hetlb/mpi/diffusion.hpp"

namespace {
struct Item {
  std::uint64_t id, square, processed;
};

int fail(int rank, long iteration, const std::string& what) {
  std::fprintf(stderr, "global-check: rank %d, iteration %ld: %s\n", rank, iteration, what.c_str());
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}
}  // namespace

int main(int argc, char** argv) {
  std::string balancer = "hybrid", progress = "calls", initial = "random", speeds_text = "1,1,0.5,0.25";
  long balanced_by = 12, total_iterations = 0, max_handover_items = -1;
  double noise = 0, tolerance = 0.1;
  long stop_at = 0;
  unsigned seed = 1;
  bool verbose = false, start_step = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--balancer") balancer = v;
    else if (a == "--progress") progress = v;
    else if (a == "--initial") initial = v;
    else if (a == "--speeds") speeds_text = v;
    else if (a == "--balanced-by") balanced_by = std::atol(v.c_str());
    else if (a == "--total") total_iterations = std::atol(v.c_str());
    else if (a == "--stop-at") stop_at = std::atol(v.c_str());
    else if (a == "--tolerance") tolerance = std::atof(v.c_str());
    else if (a == "--noise") noise = std::atof(v.c_str());
    else if (a == "--max-handover-items") max_handover_items = std::atol(v.c_str());
    else if (a == "--verbose") verbose = std::atoi(v.c_str()) != 0;
    else if (a == "--start-step") start_step = std::atoi(v.c_str()) != 0;
    else if (a == "--seed") seed = static_cast<unsigned>(std::atoi(v.c_str()));
  }
  std::vector<double> speeds;
  for (std::size_t at = 0; at != std::string::npos;) {
    speeds.push_back(std::atof(speeds_text.c_str() + at));
    at = speeds_text.find(',', at);
    if (at != std::string::npos) ++at;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, progress == "thread" ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (speeds.size() != static_cast<std::size_t>(size)) return fail(rank, 0, "expected one --speeds value per rank");
  const double speed_sum = [&] {
    double s = 0;
    for (double v : speeds) s += v;
    return s;
  }();

  // Initial items: a random count per rank (the same draw everywhere; every rank can time itself), or
  // nearly all on the slowest rank (a few on the others, to time themselves).
  const auto slowest = static_cast<int>(std::min_element(speeds.begin(), speeds.end()) - speeds.begin());
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(size), 0);
  std::mt19937 draw(seed);
  std::mt19937 jitter(seed * 7919u + static_cast<unsigned>(rank));  // this rank's noise
  for (int r = 0; r < size; ++r)
    counts[static_cast<std::size_t>(r)] =
        initial == "slowest" ? (r == slowest ? 55u * static_cast<unsigned>(size) : 5u)
        : initial == "alone" ? (r == slowest ? 60u * static_cast<unsigned>(size) : 0u)
                             : 20 + draw() % 80;
  std::uint64_t total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) first = total;
    total += counts[static_cast<std::size_t>(r)];
  }

  hetlb::mpi::DiffusionOptions o;
  o.bulk_synchronous = true;
  o.progress_thread = progress == "thread";
  o.balancer = balancer;
  o.total_iterations = total_iterations;
  o.iterations = 5;
  o.tolerance = tolerance;
  o.end_on_convergence = stop_at == 0;  // --stop-at: the program ends the run, as real programs do
  o.time_limit = 30;
  o.start_step = start_step;
  int code = 0;
  {
    hetlb::mpi::Diffusion lb(MPI_COMM_WORLD, o, sizeof(Item));
    for (std::uint64_t id = first; id < first + counts[static_cast<std::size_t>(rank)]; ++id) {
      const Item item{id, id * id, 0};
      lb.add(id, &item);
    }
    lb.start();
    long iteration = 0, balanced_at = 0;
    bool running = true;
    std::uint64_t sum = 0, squares = 0;
    for (std::uint64_t id = 0; id < total; ++id) sum += id, squares += id * id;
    while (running) {
      ++iteration;
      for (std::size_t i = 0; i < lb.size(); ++i) {
        auto* item = static_cast<Item*>(lb.item(i));
        if (item->id != lb.id(i) || item->square != item->id * item->id) return fail(rank, iteration, "payload differs");
        ++item->processed;
      }
      // The computing seconds the program knows (its kernel's nominal time), slept: a sleep's own
      // overhead on a loaded machine would make a rank with few items look slower than it is.
      const double seconds = 100e-6 * static_cast<double>(lb.size()) / speeds[static_cast<std::size_t>(rank)];
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
      const double factor = 1 + noise * (2 * std::uniform_real_distribution<double>(0, 1)(jitter) - 1);
      running = lb.iteration_done(seconds * factor);
      if (stop_at > 0 && iteration == stop_at) running = false;
      // Conservation after the call, and the emulated iteration-time imbalance.
      const double mine_time = static_cast<double>(lb.size()) / speeds[static_cast<std::size_t>(rank)];
      std::uint64_t mine[4] = {lb.size(), 0, 0, running ? 1u : 0u}, all[4];
      for (std::size_t i = 0; i < lb.size(); ++i) mine[1] += lb.id(i), mine[2] += lb.id(i) * lb.id(i);
      MPI_Allreduce(mine, all, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
      double longest = 0;
      MPI_Allreduce(&mine_time, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (all[0] != total || all[1] != sum || all[2] != squares)
        return fail(rank, iteration, "items held after iteration_done(): " + std::to_string(all[0]) + " of " +
                                         std::to_string(total) + " (or id sums differ)");
      if (all[3] != 0 && all[3] != static_cast<std::uint64_t>(size))
        return fail(rank, iteration, "iteration_done() returned false on some ranks only");
      const double imbalance = longest / (static_cast<double>(total) / speed_sum);
      if (verbose) {  // --verbose 1: each iteration's items and measured speeds, from rank 0
        const double mine_state[2] = {static_cast<double>(lb.size()), lb.speed()};
        std::vector<double> every(2 * static_cast<std::size_t>(size));
        MPI_Gather(mine_state, 2, MPI_DOUBLE, every.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {
          std::printf("global-check: iteration %ld, imbalance %.3f:", iteration, imbalance);
          for (int r = 0; r < size; ++r)
            std::printf(" %.0f items at %.0f/s", every[2 * static_cast<std::size_t>(r)],
                        every[2 * static_cast<std::size_t>(r) + 1]);
          std::printf("\n");
        }
      }
      if (balanced_at == 0 && imbalance <= 1.15) balanced_at = iteration;
    }
    for (std::size_t i = 0; i < lb.size(); ++i) {
      const auto* item = static_cast<const Item*>(lb.item(i));
      if (item->processed != static_cast<std::uint64_t>(iteration))
        return fail(rank, iteration,
                    "item " + std::to_string(item->id) + " processed " + std::to_string(item->processed) + " times");
    }
    if (stop_at > 0) lb.stop();
    const hetlb::diffusion::Metrics m = lb.metrics();  // checks conservation itself
    if (rank == 0) {
      std::printf("global-check: %s, %s, %s: ended at iteration %ld (%s), balanced (<= 1.15) at iteration %ld, "
                  "%.0f items moved, %zu global step(s)\n",
                  balancer.c_str(), progress.c_str(), initial.c_str(), iteration,
                  m.converged ? "converged" : "not converged", balanced_at,
                  m.data_transfer_amount * static_cast<double>(total), m.global_steps.size());
      for (const auto& g : m.global_steps)
        std::printf("global-check:   step at call %lld (%.3f s): gain %.4f s, cost %.4f s, work %.0f, %llu items\n",
                    g.call, g.date, g.gain, g.cost, g.work, static_cast<unsigned long long>(g.items));
    }
    if (stop_at == 0 && !m.converged) code = fail(rank, iteration, "ended without converging (time limit?)");
    if (balanced_at == 0 || balanced_at > balanced_by)
      code = fail(rank, iteration, "not balanced within 1.15 by iteration " + std::to_string(balanced_by) +
                                       " (at " + std::to_string(balanced_at) + ")");
    if (m.global_steps.empty()) code = fail(rank, iteration, "no global step taken");
    std::uint64_t step_items = 0;
    for (const auto& g : m.global_steps) {
      step_items += g.items;
      // Call 0: the start step, on equal speeds (nothing measured yet): no gain or cost predicted.
      if (g.call == 0 && (g.gain != 0 || g.cost != 0)) code = fail(rank, iteration, "a start step with a prediction");
      if (balancer == "hybrid" && g.call > 0 && !(g.gain > g.cost))
        code = fail(rank, iteration, "a hybrid step with cost >= gain");
      if (g.call < 0 || g.call > iteration) code = fail(rank, iteration, "a global step at an impossible call");
    }
    if (step_items == 0) code = fail(rank, iteration, "the global steps moved no item");
    if (start_step && (m.global_steps.empty() || m.global_steps.front().call != 0 || m.global_steps.front().items == 0))
      code = fail(rank, iteration, "no start step (a step at call 0 moving items) with --start-step 1");
    const double handed = m.data_transfer_amount * static_cast<double>(total) - static_cast<double>(step_items);
    if (rank == 0 && noise > 0) std::printf("global-check: %.0f items moved by hand-overs\n", handed);
    if (max_handover_items >= 0 && handed > static_cast<double>(max_handover_items))
      code = fail(rank, iteration, std::to_string(handed) + " items moved by hand-overs between the global steps (at most " +
                                       std::to_string(max_handover_items) + " expected: diffusion chased the speeds' noise)");
  }
  MPI_Finalize();
  return code;
}
