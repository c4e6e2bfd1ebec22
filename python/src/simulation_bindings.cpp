// hetlb._hetlb: _simulate_diffusion and _simulate_scatter, each run in a forked child (forked_call),
// the GIL released meanwhile. They return the JSON text of `hetlb simulate diffusion|scatter --format
// json` (sim::diffusion_json, sim::scatter_replay_json); the diffusion run may add the load trace.
#include "simulation_bindings.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pybind11/stl.h>

#include "forked_call.hpp"
#include "hetlb/diffusion/minimum_iteration.hpp"
#include "hetlb/diffusion/strategy_registry.hpp"
#include "hetlb/diffusion/topology.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/sim/diffusion_json.hpp"
#include "hetlb/sim/diffusion_simulation.hpp"
#include "hetlb/sim/scatter_replay.hpp"
#include "hetlb/sim/scatter_replay_json.hpp"

namespace py = pybind11;

namespace hetlb::python {

namespace {

// Ctrl-C (or any pending signal handler that raises) stops the simulation: the child is killed.
bool python_signal_pending() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// forked_call with Python's signals checked; a raised KeyboardInterrupt propagates as is.
std::string run_forked(const std::function<std::string()>& body) {
  try {
    py::gil_scoped_release release;
    return forked_call(body, python_signal_pending);
  } catch (const Interrupted&) {
    throw py::error_already_set();
  }
}

void check_min_iteration(const char* name, double v) {
  if (!diffusion::valid_min_iteration(v))
    throw Error(fmt::format("{} = {}: expected {}", name, v, diffusion::min_iteration_expected()));
}

// The options of `hetlb simulate diffusion`, with its defaults (simulate_diffusion.cpp); nodes -1: not
// given (a topology or load file then decides); any other value outside 1 to 2^20 is refused.
std::string simulate_diffusion(const std::string& platform, long long nodes, const std::string& topology,
                               const std::string& strategy, double k, bool virtual_load, bool integer,
                               bool residue_equal, bool coalesce_data, const std::string& estimates,
                               const std::string& lb_phase, bool simulate_streaks, const std::string& initial,
                               double load_per_node, double ratio, std::uint64_t seed, long long iterations,
                               double time_limit, double min_comp_iter, double min_lb_iter, double trace_interval,
                               bool trace, const std::string& balance, const std::string& speeds,
                               const std::vector<std::string>& slowdowns, const std::vector<std::string>& params) {
  sim::DiffusionConfig c;
  c.platform = platform;
  if (nodes != -1 && (nodes < 1 || nodes > (1 << 20)))
    throw Error(fmt::format("nodes = {}: expected 1 to {}", nodes, 1 << 20));
  if (iterations < 1) throw Error(fmt::format("iterations = {}: expected a whole number >= 1", iterations));
  if (min_comp_iter != -1) check_min_iteration("min_comp_iter", min_comp_iter);
  if (min_lb_iter != -1) check_min_iteration("min_lb_iter", min_lb_iter);
  if (trace_interval != 0 && !(trace_interval > 0))
    throw Error(fmt::format("trace_interval = {}: expected a positive number", trace_interval));
  c.nodes = nodes < 0 ? 16 : static_cast<int>(nodes);
  c.topology = topology;
  c.strategy = diffusion::strategy_of(strategy, k, residue_equal, params, integer);
  c.balance = diffusion::parse_balance(balance);
  c.speeds = speeds;
  for (const std::string& text : slowdowns) c.slowdowns.push_back(diffusion::parse_slowdown(text));
  c.virtual_load = virtual_load;
  c.coalesce_data = coalesce_data;
  c.estimates = diffusion::parse_estimates(estimates);
  c.lb_phase = diffusion::parse_balancing_phase(lb_phase);
  c.fast_forward = !simulate_streaks;
  c.initial = initial;
  c.load_per_node = load_per_node;
  c.ratio = ratio;
  c.seed = seed;
  c.convergence_iterations = static_cast<long>(iterations);
  c.time_limit = time_limit;
  c.min_comp_iter = min_comp_iter;
  c.min_lb_iter = min_lb_iter;
  if (nodes < 0 && (!diffusion::is_builtin_topology(c.topology) || (c.initial != "single" && c.initial != "random")))
    c.nodes = 0;
  c.trace_interval = !trace ? 0.0 : trace_interval > 0 ? trace_interval : -1.0;
  c.progress = false;
  return run_forked([&] {
    const sim::DiffusionResult r = sim::simulate_diffusion(c);
    nlohmann::json j = sim::diffusion_json(c, r);
    if (trace) {
      nlohmann::json dates = nlohmann::json::array(), loads = nlohmann::json::array();
      for (const auto& s : r.trace) {
        dates.push_back(s.date);
        loads.push_back(s.loads);
      }
      j["trace"] = {{"dates", dates}, {"loads", loads}};
    }
    j["initial_loads"] = r.initial_loads;
    j["final_loads"] = r.final_loads;
    return j.dump();
  });
}

std::string simulate_scatter(const std::string& platform_text, const std::string& source, long long items,
                             const std::string& algorithm, const std::string& order, const std::string& root) {
  scatter::Request req;
  req.algorithm = scatter::parse_algorithm(algorithm);
  req.order = scatter::parse_order_policy(order);
  if (items < 0 || items > (1LL << 40))
    throw Error(fmt::format("items = {}: expected 1 to {}", items, 1LL << 40));
  req.items = items;
  req.root = root;
  const Platform pf = io::parse_platform_json(platform_text, source);
  return run_forked([&] {
    const scatter::Result plan = scatter::plan_scatter(pf, req);
    const sim::ScatterReplay r = sim::replay_scatter(plan.problem, plan.plan.items);
    return sim::scatter_replay_json(algorithm, plan, r).dump();
  });
}

}  // namespace

void bind_simulation(py::module_& m) {
  m.def("_simulate_diffusion", &simulate_diffusion, py::arg("platform"), py::arg("nodes"), py::arg("topology"),
        py::arg("strategy"), py::arg("k"), py::arg("virtual_load"), py::arg("integer"), py::arg("residue_equal"),
        py::arg("coalesce_data"), py::arg("estimates"), py::arg("lb_phase"), py::arg("simulate_streaks"),
        py::arg("initial"), py::arg("load_per_node"), py::arg("ratio"), py::arg("seed"), py::arg("iterations"),
        py::arg("time_limit"), py::arg("min_comp_iter"), py::arg("min_lb_iter"), py::arg("trace_interval"),
        py::arg("trace"), py::arg("balance"), py::arg("speeds"), py::arg("slowdowns"), py::arg("params"));
  m.def("_simulate_scatter", &simulate_scatter, py::arg("platform_json"), py::arg("source"), py::arg("items"),
        py::arg("algorithm"), py::arg("order"), py::arg("root"));
}

}  // namespace hetlb::python
