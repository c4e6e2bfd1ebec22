// Simulation speed: CPU time per simulated event of `hetlb simulate diffusion` (torus, best effort,
// random initial load, ratio 1) against a bare S4U message loop of the same size, each run in a
// forked child (SimGrid: one engine per process). Reported time = CPU seconds (user + system, of the
// child) per million events: CPU time, not wall time, so that a loaded machine skews the ratios less.
// Then whole runs to convergence with the paper's 2000-iteration streaks, simulated or computed.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "bench_ratio.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"
#include "hetlb/sim/message_loop.hpp"

namespace {

struct Measure {
  double events = 0, wall = 0, simulated = 0, cpu = 0, dates = 0;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

Measure in_child(const std::function<Measure()>& body) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    Measure m;
    const double cpu0 = cpu_seconds();
    try {
      m = body();
      m.cpu = cpu_seconds() - cpu0;
    } catch (...) {
      m = {};
    }
    if (write(fd[1], &m, sizeof m) != static_cast<ssize_t>(sizeof m)) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  Measure m;
  if (read(fd[0], &m, sizeof m) != static_cast<ssize_t>(sizeof m)) m = {};
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  return m;
}

void report(benchmark::State& state, const Measure& m) {
  if (m.events <= 0) {
    state.SkipWithError("simulation failed");
    return;
  }
  state.SetIterationTime(m.cpu / m.events * 1e6);  // CPU seconds per million events
  state.counters["events"] = m.events;
  state.counters["events_per_cpu_s"] = m.events / m.cpu;
  state.counters["cpu_s"] = m.cpu;
  state.counters["wall_s"] = m.wall;
  state.counters["dates_per_event"] = m.dates / m.events;
  if (m.simulated > 0) state.counters["simulated_s"] = m.simulated;
}

// Arg 1: 0 synchronised (a round of the ring at one date), 1 desynchronised (a date per message).
void BM_S4uMessageLoop(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const bool desynchronised = state.range(1) != 0;
  for (auto _ : state)
    report(state, in_child([nodes, desynchronised] {
             const auto r = hetlb::sim::bare_message_loop(nodes, 200000 / nodes + 20, desynchronised);
             return Measure{static_cast<double>(r.events), r.wall_seconds, 0, 0, static_cast<double>(r.dates)};
           }));
}

// Convergence streak shortened to 100 iterations so the benchmark stays short (the README's wall
// times use the paper's 2000). Below 256 nodes, 256 / nodes runs (seeds 1, 2, ...) are summed, so that
// every size simulates some 10^5 events, enough for the CPU clock's resolution.
Measure diffusion_runs(int nodes, hetlb::diffusion::Balance balance) {
  Measure sum;
  for (int seed = 1; seed <= std::max(1, 256 / nodes); ++seed) {
    const Measure m = in_child([nodes, seed, balance] {
      hetlb::sim::DiffusionConfig c;
      c.nodes = nodes;
      c.topology = "torus";
      c.initial = "random";
      c.seed = static_cast<unsigned>(seed);
      c.convergence_iterations = 100;
      c.balance = balance;
      const auto r = hetlb::sim::simulate_diffusion(c);
      return Measure{static_cast<double>(r.events), r.metrics.wall_seconds, r.metrics.simulated_time, 0,
                     static_cast<double>(r.dates)};
    });
    if (m.events <= 0) return {};
    sum.events += m.events, sum.wall += m.wall, sum.simulated += m.simulated, sum.cpu += m.cpu, sum.dates += m.dates;
  }
  return sum;
}

// Balancing by time on equal speeds makes the same events as by load (bit-identical decisions): arg 1
// 0 balances load, 1 time; the ratio is the time view's extra CPU per simulated event (issue: < 5%).
// Each measure keeps the least CPU of 3 repetitions, so that another process's burst on a shared
// machine weighs less.
void BM_DiffusionBalance(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const auto balance = state.range(1) != 0 ? hetlb::diffusion::Balance::time : hetlb::diffusion::Balance::load;
  for (auto _ : state) {
    Measure best;
    for (int round = 0; round < 3; ++round) {
      const Measure m = diffusion_runs(nodes, balance);
      if (m.events <= 0) {
        best = {};
        break;
      }
      if (best.events <= 0 || m.cpu < best.cpu) best = m;
    }
    report(state, best);
  }
}

void BM_Diffusion(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Measure sum;
    for (int seed = 1; seed <= std::max(1, 256 / nodes); ++seed) {
      const Measure m = in_child([nodes, seed] {
        hetlb::sim::DiffusionConfig c;
        c.nodes = nodes;
        c.topology = "torus";
        c.initial = "random";
        c.seed = static_cast<unsigned>(seed);
        c.convergence_iterations = 100;
        const auto r = hetlb::sim::simulate_diffusion(c);
        return Measure{static_cast<double>(r.events), r.metrics.wall_seconds, r.metrics.simulated_time, 0,
                       static_cast<double>(r.dates)};
      });
      if (m.events <= 0) {
        sum = {};
        break;
      }
      sum.events += m.events, sum.wall += m.wall, sum.simulated += m.simulated, sum.cpu += m.cpu, sum.dates += m.dates;
    }
    report(state, sum);
  }
}

// The 1024-node torus of the README (best effort, random load, ratio 1) to convergence with the
// paper's 2000-iteration streaks: arg 0 simulates the streaks to their end (what every run did before
// the end was computed), arg 1 computes the end once nothing can change. Time = CPU seconds.
void BM_DiffusionToConvergence(benchmark::State& state) {
  const bool computed = state.range(0) != 0;
  for (auto _ : state) {
    const Measure m = in_child([computed] {
      hetlb::sim::DiffusionConfig c;
      c.nodes = 1024;
      c.topology = "torus";
      c.initial = "random";
      c.fast_forward = computed;
      const auto r = hetlb::sim::simulate_diffusion(c);
      if (!r.metrics.converged) return Measure{};
      return Measure{static_cast<double>(r.events), r.metrics.wall_seconds, r.metrics.max_convergence_date};
    });
    if (m.events <= 0) {
      state.SkipWithError("simulation failed or did not converge");
      return;
    }
    state.SetIterationTime(m.cpu);
    state.counters["events"] = m.events;
    state.counters["cpu_s"] = m.cpu;
    state.counters["wall_s"] = m.wall;
    state.counters["max_convergence_date"] = m.simulated;
  }
}

BENCHMARK(BM_S4uMessageLoop)->ArgsProduct({{16, 64, 256, 1024}, {0, 1}})->Iterations(1)->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_Diffusion)->Arg(16)->Arg(64)->Arg(256)->Arg(1024)->Iterations(1)->UseManualTime()
    ->Unit(benchmark::kSecond);

HETLB_RATIO("BM_S4uMessageLoop/16/0/iterations:1/manual_time", "BM_Diffusion/16/iterations:1/manual_time");
HETLB_DATE_MATCHED("BM_S4uMessageLoop/16/0/iterations:1/manual_time", "BM_S4uMessageLoop/16/1/iterations:1/manual_time",
                   "BM_Diffusion/16/iterations:1/manual_time");
HETLB_RATIO("BM_S4uMessageLoop/64/0/iterations:1/manual_time", "BM_Diffusion/64/iterations:1/manual_time");
HETLB_DATE_MATCHED("BM_S4uMessageLoop/64/0/iterations:1/manual_time", "BM_S4uMessageLoop/64/1/iterations:1/manual_time",
                   "BM_Diffusion/64/iterations:1/manual_time");
HETLB_RATIO("BM_S4uMessageLoop/256/0/iterations:1/manual_time", "BM_Diffusion/256/iterations:1/manual_time");
HETLB_DATE_MATCHED("BM_S4uMessageLoop/256/0/iterations:1/manual_time", "BM_S4uMessageLoop/256/1/iterations:1/manual_time",
                   "BM_Diffusion/256/iterations:1/manual_time");
HETLB_RATIO("BM_S4uMessageLoop/1024/0/iterations:1/manual_time", "BM_Diffusion/1024/iterations:1/manual_time");
HETLB_DATE_MATCHED("BM_S4uMessageLoop/1024/0/iterations:1/manual_time", "BM_S4uMessageLoop/1024/1/iterations:1/manual_time",
                   "BM_Diffusion/1024/iterations:1/manual_time");

BENCHMARK(BM_DiffusionBalance)->ArgsProduct({{64, 256}, {0, 1}})->Iterations(1)->UseManualTime();
HETLB_RATIO("BM_DiffusionBalance/64/0/iterations:1/manual_time", "BM_DiffusionBalance/64/1/iterations:1/manual_time");
HETLB_RATIO("BM_DiffusionBalance/256/0/iterations:1/manual_time", "BM_DiffusionBalance/256/1/iterations:1/manual_time");
BENCHMARK(BM_DiffusionToConvergence)->Arg(0)->Arg(1)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
HETLB_RATIO("BM_DiffusionToConvergence/0/iterations:1/manual_time",
            "BM_DiffusionToConvergence/1/iterations:1/manual_time");

}  // namespace
