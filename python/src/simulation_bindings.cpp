// hetlb._hetlb: _simulate_diffusion and _simulate_scatter, each run in a forked child (forked_call),
// the GIL released meanwhile. They return the JSON text of `hetlb simulate diffusion|scatter --format
// json` (sim::diffusion_json, sim::scatter_replay_json); the diffusion run may add the load trace.
#include "simulation_bindings.hpp"

#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pybind11/stl.h>

#include "forked_call.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/sim/diffusion_json.hpp"
#include "hetlb/sim/diffusion_options.hpp"
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

// `hetlb simulate diffusion --format json` for these options (sim::DiffusionOptions, the command line's
// object), with the load trace when `trace`.
std::string simulate_diffusion(const sim::DiffusionOptions& options, bool trace) {
  sim::DiffusionConfig c = sim::to_config(options, trace);
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
  // The command line's options object; hetlb.DiffusionOptions (simulation.py) checks each value as it is set.
  py::class_<sim::DiffusionOptions>(m, "_DiffusionOptions")
      .def(py::init<>())
      .def_readwrite("platform", &sim::DiffusionOptions::platform)
      .def_readwrite("nodes", &sim::DiffusionOptions::nodes)
      .def_readwrite("topology", &sim::DiffusionOptions::topology)
      .def_readwrite("strategy", &sim::DiffusionOptions::strategy)
      .def_readwrite("k", &sim::DiffusionOptions::k)
      .def_readwrite("residue_equal", &sim::DiffusionOptions::residue_equal)
      .def_readwrite("params", &sim::DiffusionOptions::params)
      .def_readwrite("virtual_load", &sim::DiffusionOptions::virtual_load)
      .def_readwrite("integer", &sim::DiffusionOptions::integer)
      .def_readwrite("coalesce_data", &sim::DiffusionOptions::coalesce_data)
      .def_readwrite("estimates", &sim::DiffusionOptions::estimates)
      .def_readwrite("lb_phase", &sim::DiffusionOptions::lb_phase)
      .def_readwrite("simulate_streaks", &sim::DiffusionOptions::simulate_streaks)
      .def_readwrite("initial", &sim::DiffusionOptions::initial)
      .def_readwrite("load_per_node", &sim::DiffusionOptions::load_per_node)
      .def_readwrite("ratio", &sim::DiffusionOptions::ratio)
      .def_readwrite("seed", &sim::DiffusionOptions::seed)
      .def_readwrite("iterations", &sim::DiffusionOptions::iterations)
      .def_readwrite("time_limit", &sim::DiffusionOptions::time_limit)
      .def_readwrite("min_comp_iter", &sim::DiffusionOptions::min_comp_iter)
      .def_readwrite("min_lb_iter", &sim::DiffusionOptions::min_lb_iter)
      .def_readwrite("trace_interval", &sim::DiffusionOptions::trace_interval)
      .def_readwrite("balance", &sim::DiffusionOptions::balance)
      .def_readwrite("balancer", &sim::DiffusionOptions::balancer)
      .def_readwrite("speeds", &sim::DiffusionOptions::speeds)
      .def_readwrite("slowdowns", &sim::DiffusionOptions::slowdowns)
      .def_readwrite("metrics_at", &sim::DiffusionOptions::metrics_at)
      .def_readwrite("imbalance_integral", &sim::DiffusionOptions::imbalance_integral);
  m.def("_simulate_diffusion", &simulate_diffusion, py::arg("options"), py::arg("trace"));
  m.def("_simulate_scatter", &simulate_scatter, py::arg("platform_json"), py::arg("source"), py::arg("items"),
        py::arg("algorithm"), py::arg("order"), py::arg("root"));
}

}  // namespace hetlb::python
