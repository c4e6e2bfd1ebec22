// hetlb simulate ring-iterations FILE.json: an iterative application on a processor ring whose load
// drifts, redistributed by a policy (Renard, Robert, Vivien, Section 8: when do redistributions pay
// off?). The model of include/hetlb/ring/iterative.hpp, no SimGrid.
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/io/build_json.hpp"
#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/interrupt.hpp"
#include "hetlb/io/ring_json.hpp"
#include "hetlb/ring/drift.hpp"
#include "hetlb/ring/offline_optimum.hpp"
#include "hetlb/progress.hpp"
#include "hetlb/ring/redistribution_policy.hpp"
#include "hetlb/sim/ring_iterations_replay.hpp"
#include "number_checks.hpp"

namespace hetlb::cli {

namespace {

struct RingIterationsOptions {
  std::string file, policy, drift, format = "table", engine = "model";
  std::size_t iterations = 0;
  double ratio = 0, drift_speed = -1;
  std::uint64_t seed = 1;
  bool bidirectional = false;
};

// The ring file (hetlb ring's input; targets optional, ignored) and its optional "speeds".
ring::IterativeApp load_app(const RingIterationsOptions& o) {
  std::stringstream text(read_input_text(o.file, "the ring file"));
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_object() && !j.contains("targets") && !j.contains("unbalance") && j.contains("loads")) j["targets"] = j["loads"];
  ring::IterativeApp app;
  app.ring = io::parse_ring_json(j.is_discarded() ? text.str() : j.dump(), o.file, o.bidirectional);
  const std::size_t n = app.ring.size();
  app.speeds.assign(n, 1.0);
  if (j.is_object() && j.contains("speeds")) {
    const nlohmann::json& s = j["speeds"];
    const auto speed = [&](const nlohmann::json& v, const std::string& field) {
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
        throw Error(o.file + ": " + field + ": a finite number > 0 expected (a processor's speed)");
      return v.get<double>();
    };
    if (s.is_array()) {
      if (s.size() != n)
        throw Error(fmt::format("{}: speeds: {} values, expected {} (one per processor)", o.file, s.size(), n));
      for (std::size_t i = 0; i < n; ++i) app.speeds[i] = speed(s[i], fmt::format("speeds[{}]", i));
    } else {
      app.speeds.assign(n, speed(s, "speeds"));
    }
  }
  double link = 0;
  for (double c : app.ring.succ_cost) link += c;
  for (double c : app.ring.pred_cost) link += c;
  link /= static_cast<double>(app.ring.succ_cost.size() + app.ring.pred_cost.size());
  app.compute_cost = o.ratio * link;  // ratio = compute time of an item at speed 1 / mean link time of an item
  return app;
}

void run_ring_iterations(const RingIterationsOptions& o) {
  ring::IterativeApp app = load_app(o);
  const std::size_t n = app.ring.size();
  const Count total = std::accumulate(app.ring.loads.begin(), app.ring.loads.end(), Count{0});
  const Count mean = std::max<Count>(1, static_cast<Count>(std::llround(static_cast<double>(total) / static_cast<double>(n))));
  std::unique_ptr<ring::Drift> drift;
  if (o.drift == "window") {
    const double speed = o.drift_speed < 0 ? 0.25 : o.drift_speed;
    const std::size_t width = std::max<std::size_t>(1, n / 8);
    app.ring.loads = ring::window_initial_loads(app.ring.loads, width, mean);
    drift = ring::window_drift(n, width, mean, speed);
  } else if (o.drift == "walk") {
    const double speed = o.drift_speed < 0 ? 0.01 : o.drift_speed;
    drift = ring::walk_drift(n, std::max<Count>(1, static_cast<Count>(std::llround(speed * static_cast<double>(mean)))), o.seed);
  } else {
    auto rows = ring::load_trace_file(o.drift, n, o.iterations);
    app.ring.loads = rows.front();
    drift = ring::trace_drift(std::move(rows));
  }
  ring::validate(app);
  ring::RunResult r;
  // SIGINT, SIGTERM: the run ends at the next iteration boundary and reports the iterations done
  // (hetlb/interrupt.hpp). The offline optimum's search is bounded (a few seconds) and not interruptible.
  const auto stop = [] { return interrupted(); };
  const auto progress = [](const std::string& line) { std::cerr << "hetlb: " << line << std::endl; };
  if (o.policy == "optimal") {
    r = ring::offline_optimum(app, *drift, o.iterations);
  } else {
    auto policy = ring::make_policy(o.policy);
    ring::RunOptions options;
    options.record_redistributions = o.engine == "simgrid";  // the replay's input; else only sums are kept
    options.stop = stop;
    install_interrupt_handlers();
    set_progress_sink(progress);
    r = ring::run_iterations(app, *drift, *policy, o.iterations, options);
    set_progress_sink({});
  }
  std::size_t done = r.iterations_done;
  const double model_total = r.total_time;
  double wall = 0;
  // Stopped during the model's run, the replay is not made: the results are the model's.
  const std::string engine = o.engine == "simgrid" && done == o.iterations ? "simgrid" : "model";
  bool replay_whole = true;
  if (engine == "simgrid") {  // the policy's redistributions replayed on SimGrid
    install_interrupt_handlers();
    set_progress_sink(progress);
    const sim::RingIterationsReplay rep = sim::replay_ring_iterations(app, *drift, r.redistributed_at, o.iterations, stop);
    set_progress_sink({});
    done = rep.iterations_done;
    replay_whole = done == o.iterations;
    const double ideal = app.compute_cost * static_cast<double>(std::accumulate(app.ring.loads.begin(), app.ring.loads.end(), Count{0})) /
                         std::accumulate(app.speeds.begin(), app.speeds.end(), 0.0);
    r.total_time = rep.total_time;
    r.compute_time = rep.compute_time;
    r.redistribution_time = rep.redistribution_time;
    r.imbalance_time = rep.compute_time - ideal * static_cast<double>(done);
    r.redistributions = rep.redistributions;
    r.data_moved = rep.data_moved;
    wall = rep.wall_seconds;
  }
  const bool partial = done < o.iterations;
  if (o.format == "json") {
    nlohmann::json j{{"policy", o.policy},
                                {"drift", o.drift},
                                {"iterations", o.iterations},
                                {"ratio", o.ratio},
                                {"processors", n},
                                {"total_time", r.total_time},
                                {"compute_time", r.compute_time},
                                {"imbalance_time", r.imbalance_time},
                                {"redistribution_time", r.redistribution_time},
                                {"redistributions", r.redistributions},
                                {"data_moved", r.data_moved},
                                {"build", io::build_json()}};
    j["engine"] = engine;
    if (engine == "simgrid") {
      // The model's total covers every iteration: null beside a replay stopped before the end.
      j["model_total_time"] = replay_whole ? nlohmann::json(model_total) : nlohmann::json();
      j["wall_seconds"] = wall;
    }
    if (partial) j["interrupted"] = true, j["iterations_done"] = done;  // the sums of the iterations done
    std::cout << j.dump(2) << "\n";
  } else {
    if (partial)
      std::cout << fmt::format("interrupted by {} after {} of {} iterations: the sums of the iterations done\n",
                               interrupt_signal_name(), done, o.iterations);
    std::cout << fmt::format(
        "{} processors, {} iterations, drift {}, ratio {}, policy {}\n"
        "total time {:.9g} = compute {:.9g} (of which imbalance {:.9g}) + redistributions {:.9g}\n"
        "redistributions {}, items moved (x links) {}\n",
        n, done, o.drift, o.ratio, o.policy, r.total_time, r.compute_time, r.imbalance_time,
        r.redistribution_time, r.redistributions, r.data_moved);
    if (engine == "simgrid" && replay_whole)
      std::cout << fmt::format("simulated on SimGrid; the model's total time {:.9g}\n", model_total);
    else if (engine == "simgrid")
      std::cout << "simulated on SimGrid\n";
  }
  if (partial)
    throw Interrupted(fmt::format("interrupted by {} after {} of {} iterations{}: the results written are the sums "
                                  "of the iterations done, marked as interrupted",
                                  interrupt_signal_name(), done, o.iterations,
                                  o.engine == "simgrid" && engine == "model" ? ", before the SimGrid replay (not made)" : ""));
}

}  // namespace

void add_simulate_ring_iterations_command(CLI::App& simulate) {
  auto o = std::make_shared<RingIterationsOptions>();
  CLI::App* sub = simulate.add_subcommand(
      "ring-iterations", "Model an iterative application on a ring whose load drifts, redistributed by a policy");
  sub->add_option("file", o->file, "ring JSON file (loads, link costs, optional speeds)")->required();
  sub->add_option("--policy", o->policy, "never, every:K, threshold:X, model or optimal")->required();
  sub->add_option("--iterations", o->iterations, "number of iterations")->required()->check(whole_number<std::size_t>(1, 1'000'000'000));
  sub->add_option("--drift", o->drift, "window, walk or a trace FILE of per-iteration loads")->required();
  sub->add_option("--ratio", o->ratio, "computation-to-communication ratio: compute time of an item / mean link time of an item")
      ->required()->check(number_from_to(1e-9, 1e9));
  sub->add_option("--drift-speed", o->drift_speed, "window: processors per iteration (0.25); walk: step as a fraction of the mean load (0.01)")
      ->check(positive());
  sub->add_option("--seed", o->seed, "seed of the random walk")->check(whole_number<std::uint64_t>(0, UINT64_MAX));
  sub->add_flag("--bidirectional", o->bidirectional, "use both directions of every link");
  sub->add_option("--format", o->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  sub->add_option("--engine", o->engine, "model (the iterative model) or simgrid (its replay on SimGrid)")
      ->check(CLI::IsMember({"model", "simgrid"}));
  sub->footer(
      "SIGINT (Ctrl-C) or SIGTERM ends the run at the next iteration boundary: the sums of the iterations done "
      "are written (json: \"interrupted\": true, \"iterations_done\"; table: a first line saying so), with one line "
      "on stderr; exit status 130 (SIGINT) or 143 (SIGTERM). A second signal ends it at once.");
  sub->callback([o] {
    if (o->policy != "optimal") (void)ring::make_policy(o->policy);  // refuse a bad policy before any work
    run_ring_iterations(*o);
  });
}

}  // namespace hetlb::cli
