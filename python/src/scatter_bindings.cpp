// hetlb._hetlb: Platform, ScatterPlan, plan_scatter. The plan's JSON is io::scatter_json (with weights:
// io::weighted_scatter_json), the function that `hetlb scatter --format json` prints; the argument
// checks are the command line's.
#include "scatter_bindings.hpp"

#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "hetlb/error.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/io/perturbation_json.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/io/scatter_json.hpp"
#include "hetlb/model/calibration.hpp"
#include "hetlb/scatter/perturbation.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/scatter/weighted.hpp"

namespace py = pybind11;

namespace hetlb::python {

namespace {

// The measured points' cost as `model` ("affine" or "table") fits them.
CostFunction fitted_cost(const std::vector<std::pair<double, double>>& points, const std::string& model) {
  if (model == "table") return table_from_points(points);
  if (model == "affine") return fit_affine(points).cost();
  throw Error(fmt::format("model '{}': expected affine or table", model));
}

struct PlatformHandle {
  std::shared_ptr<const Platform> platform;
  std::string source;  // the file's path, or "platform" for a dict
};

struct ScatterPlan {
  std::shared_ptr<const Platform> platform;
  scatter::Request request;
  scatter::Result result;
  std::string algorithm_argument, order_argument;  // as given (hetlb.mpi plans again with them)
  // Plans of weighted items (docs/weighted-items.md): the weights as given and the planner's result.
  // Their blocks follow the send order in the root's buffer; with the any layout the permutation
  // gives the item at each position of the blocks.
  std::optional<scatter::WeightedResult> weighted;
  std::vector<double> weights;
};

py::array_t<std::int64_t> int_array(const std::vector<std::int64_t>& v) {
  py::array_t<std::int64_t> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

// Items of each platform processor (rank order): the plan's shares are in send order.
std::vector<std::int64_t> counts_in_rank_order(const ScatterPlan& p) {
  std::vector<std::int64_t> counts(p.platform->processors.size(), 0);
  for (std::size_t i = 0; i < p.result.problem.size(); ++i)
    counts[p.result.problem.platform_index[i]] = p.result.plan.items[i];
  return counts;
}

py::array_t<double> double_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

// First item of each processor's block in the root's buffer (rank order): prefix sums of the counts
// in rank order, or in send order for weighted plans (their ranges follow the send order).
std::vector<std::int64_t> displacements_in_rank_order(const ScatterPlan& p) {
  const std::vector<std::int64_t> counts = counts_in_rank_order(p);
  std::vector<std::int64_t> d(counts.size(), 0);
  std::vector<std::size_t> blocks;  // platform indices in block order
  if (p.weighted) {
    blocks.assign(p.result.problem.platform_index.begin(), p.result.problem.platform_index.end());
  } else {
    for (std::size_t r = 0; r < counts.size(); ++r) blocks.push_back(r);
  }
  std::int64_t next = 0;
  for (std::size_t r : blocks) {
    d[r] = next;
    next += counts[r];
  }
  return d;
}

// The item at each position of the blocks: the identity unless the layout is any, where the items of
// each send position are grouped in item order (as hetlb_mpi's plans do, src/mpi/distribution.cpp).
std::vector<std::int64_t> permutation_of(const ScatterPlan& p) {
  const auto n = static_cast<std::size_t>(p.result.problem.items);
  std::vector<std::int64_t> perm(n);
  if (!p.weighted || p.weighted->weighted.layout != scatter::Layout::Any) {
    for (std::size_t k = 0; k < n; ++k) perm[k] = static_cast<std::int64_t>(k);
    return perm;
  }
  const std::vector<std::size_t>& owner = p.weighted->weighted.owner;
  const std::vector<std::int64_t> displs = displacements_in_rank_order(p);
  std::vector<std::int64_t> next(p.result.problem.size(), 0);
  for (std::size_t i = 0; i < next.size(); ++i) next[i] = displs[p.result.problem.platform_index[i]];
  for (std::size_t k = 0; k < owner.size(); ++k) perm[static_cast<std::size_t>(next[owner[k]]++)] = static_cast<std::int64_t>(k);
  return perm;
}

// Work of each platform processor (rank order): the sum of its items' weights, its count unweighted.
std::vector<double> work_in_rank_order(const ScatterPlan& p) {
  std::vector<double> work(p.platform->processors.size(), 0.0);
  for (std::size_t i = 0; i < p.result.problem.size(); ++i)
    work[p.result.problem.platform_index[i]] =
        p.weighted ? p.weighted->weighted.work[i] : static_cast<double>(p.result.plan.items[i]);
  return work;
}

// The command line's checks before planning (scatter_command.cpp), with its messages.
void check_request(const PlatformHandle& h, const scatter::Request& req, const std::string& order,
                   const std::string& root, bool weighted) {
  const Platform& platform = *h.platform;
  if (req.items == 0 && platform.items <= 0 && !weighted)
    throw Error(fmt::format("{}: no items: give \"items\" in the file or --items N", h.source));
  if (req.order_list.empty()) return;
  const std::size_t root_index = root.empty() || root == "auto" ? platform.root : platform.index_of(root);
  if (root == "auto") throw Error(fmt::format("--order {}: a list of names needs --root NAME, not auto", order));
  bool known = false;
  for (const auto& proc : platform.processors) known = known || proc.name == order;
  if (order.find(',') == std::string::npos && !known)
    throw Error(fmt::format("--order {}: expected given, bandwidth, reverse-bandwidth, best, or the non-root "
                            "processors by name (a,b,c)",
                            order));
  try {
    scatter::explicit_order(platform, root_index, req.order_list);
  } catch (const Error& e) {
    throw Error(std::string("--") + e.what());
  }
}

// weights: none for a plan of counts, else one work per item (hetlb/planning.py has checked its type and
// shape; the values are checked here, by WeightedItems::check). layout: "contiguous" or "any".
ScatterPlan plan(const PlatformHandle& h, long long items, const std::string& algorithm, const std::string& order,
                 const std::string& root, bool dp_fallback, long long order_evaluations,
                 std::optional<py::array_t<double, py::array::c_style | py::array::forcecast>> weights,
                 const std::string& layout_name) {
  const scatter::Layout layout = scatter::parse_layout(layout_name);
  if (!weights && layout != scatter::Layout::Contiguous)
    throw Error(fmt::format("layout {}: needs weights= (items of equal cost have one layout)", layout_name));
  if (weights && weights->ndim() != 1)
    throw Error(fmt::format("weights: {} dimensions: expected one number per item", weights->ndim()));
  if (items < 0) throw Error(fmt::format("items = {}: expected a positive number of items", items));
  if (order_evaluations < 1)
    throw Error(fmt::format("order_evaluations = {}: expected at least 1", order_evaluations));
  scatter::Request req;
  req.algorithm = scatter::parse_algorithm(algorithm);
  if (scatter::is_order_policy(order)) req.order = scatter::parse_order_policy(order);
  else req.order_list = order;
  req.root = root;
  req.items = items;
  req.exact.dp_fallback = dp_fallback;
  req.search.max_evaluations = static_cast<std::size_t>(order_evaluations);
  req.search.exact = req.exact;
  ScatterPlan p{h.platform, req, {}, algorithm, order, {}, {}};
  scatter::WeightedItems it;
  if (weights) {
    p.weights.assign(weights->data(), weights->data() + weights->size());
    it.work = p.weights;
    it.check();  // the first bad weight is named, whatever else is wrong
  }
  check_request(h, req, order, root, weights.has_value());
  {
    py::gil_scoped_release release;
    if (weights) {
      p.weighted = scatter::plan_scatter_weighted(*h.platform, req, it, layout);
      p.result = p.weighted->result;
    } else {
      p.result = scatter::plan_scatter(*h.platform, req);
    }
  }
  return p;
}

// A Python integer within [lo, hi], else the command line's message for `option` with the value as given
// (an integer past 64 bits included).
long long whole_in(const py::int_& v, const char* option, long long lo, long long hi) {
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || x < lo || x > hi)
    throw Error(fmt::format("{}: value {}: expected a whole number from {} to {}", option,
                            std::string(py::str(py::handle(v))), lo, hi));
  return x;
}

std::uint64_t seed_of(const py::int_& v) {
  const unsigned long long x = PyLong_AsUnsignedLongLong(v.ptr());
  if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();  // negative or past 64 bits
    throw Error(fmt::format("--seed: value {}: expected a whole number from 0 to {}",
                            std::string(py::str(py::handle(v))), std::numeric_limits<std::uint64_t>::max()));
  }
  return x;
}

// `hetlb scatter --perturb PCT --samples N --seed S --factors FILE --format json` on this plan; percent
// or samples None: not given; factors: the JSON text of a dict (source "factors") or a file's path.
std::string perturb(const ScatterPlan& p, std::optional<double> percent_arg, std::optional<py::int_> samples_int,
                    const py::int_& seed_int, const std::string& factors_text, const std::string& factors_path) {
  const std::uint64_t seed = seed_of(seed_int);
  std::optional<long long> samples_arg;
  if (samples_int) samples_arg = whole_in(*samples_int, "--samples", 1, scatter::kMaxPerturbationSamples);
  if (p.weighted)
    throw Error("perturb: the plan has weights: the robustness study (--perturb, --factors) plans on item counts only");
  const bool percent_given = percent_arg.has_value(), samples_given = samples_arg.has_value();
  const double percent = percent_arg.value_or(0.0);
  const long long samples = samples_arg.value_or(100);
  if (percent_given && !(percent >= 0 && percent < 100))
    throw Error(fmt::format("--perturb {}: expected a percentage in [0, 100)", percent));
  if (samples_given && (samples <= 0 || samples > scatter::kMaxPerturbationSamples))
    throw Error(fmt::format("--samples: value {}: expected a whole number from 1 to {}", samples,
                            scatter::kMaxPerturbationSamples));
  scatter::PerturbationRequest pr;
  pr.percent = percent_given ? percent : 0.0;
  pr.samples = static_cast<int>(percent_given || samples_given ? samples : 1);
  pr.seed = seed;
  pr.fixed.assign(p.platform->processors.size(), {});
  nlohmann::json factors;
  std::string source = "factors";
  if (!factors_path.empty()) {
    source = factors_path;
    if (const std::string why = unreadable_reason(factors_path); !why.empty())
      throw Error(fmt::format("{}: cannot read the factors file: {}", factors_path, why));
    std::ifstream in(factors_path);
    try {
      factors = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception&) {
      throw Error(fmt::format("{}: malformed JSON (expected {{\"NAME\": FACTOR or {{\"compute\": F, \"comm\": G}}}})",
                              factors_path));
    }
  } else if (!factors_text.empty()) {
    factors = nlohmann::json::parse(factors_text);
  }
  if (!factors.is_null()) {
    if (!factors.is_object()) throw Error(fmt::format("{}: expected an object of processor names", source));
    io::apply_cost_factors(*p.platform, factors, source, pr.fixed);
  }
  scatter::PerturbationReport report;
  {
    py::gil_scoped_release release;
    report = scatter::perturb_plan(*p.platform, p.request, p.result, pr);
  }
  return io::perturbation_json(*p.platform, p.result, pr, report).dump();
}

}  // namespace

void bind_scatter(py::module_& m) {
  py::class_<PlatformHandle>(m, "Platform",
                             "A scatter platform: processors with their cost models, the data's holder (root) and "
                             "the default number of items. Build it with hetlb.platform().")
      .def_static(
          "from_json",
          [](const std::string& text, const std::string& source) {
            return PlatformHandle{std::make_shared<const Platform>(io::parse_platform_json(text, source)), source};
          },
          py::arg("text"), py::arg("source") = "platform", "Parses a platform file's text (ValueError on mistakes).")
      .def_static(
          "from_file",
          [](const std::string& path) {
            return PlatformHandle{std::make_shared<const Platform>(io::load_platform_file(path)), path};
          },
          py::arg("path"), "Reads a platform JSON file (ValueError naming the file, field and expectation).")
      .def_property_readonly("name", [](const PlatformHandle& h) { return h.platform->name; })
      .def_property_readonly("source", [](const PlatformHandle& h) { return h.source; })
      .def_property_readonly("items", [](const PlatformHandle& h) { return h.platform->items; },
                             "The file's default number of items (0: none).")
      .def_property_readonly("root", [](const PlatformHandle& h) { return h.platform->processors[h.platform->root].name; })
      .def_property_readonly("names",
                             [](const PlatformHandle& h) {
                               std::vector<std::string> names;
                               for (const auto& p : h.platform->processors) names.push_back(p.name);
                               return names;
                             },
                             "Processor names after `count` expansion; processor k is MPI rank k.")
      .def("__len__", [](const PlatformHandle& h) { return h.platform->processors.size(); })
      .def("to_json", [](const PlatformHandle& h) { return io::platform_to_json(*h.platform); },
           "The platform in the file format (one entry per processor).")
      .def("__repr__", [](const PlatformHandle& h) {
        return fmt::format("<hetlb.Platform {}: {} processors, root {}>", h.platform->name.empty() ? h.source : h.platform->name,
                           h.platform->processors.size(), h.platform->processors[h.platform->root].name);
      });

  py::class_<ScatterPlan>(m, "ScatterPlan",
                          "A load-balanced scatter plan (RR-4770). counts/displacements are in rank (platform) "
                          "order, ready for MPI_Scatterv; order/send_order give the root's send order, root last.")
      .def_property_readonly("counts", [](const ScatterPlan& p) { return int_array(counts_in_rank_order(p)); },
                             "Items of each processor, in platform (rank) order (numpy int64).")
      .def_property_readonly("displacements",
                             [](const ScatterPlan& p) { return int_array(displacements_in_rank_order(p)); },
                             "First position of each processor's block in the root's buffer, in platform (rank) "
                             "order (numpy int64): prefix sums of counts in rank order, or in send order for a "
                             "weighted plan (its ranges follow the send order).")
      .def_property_readonly("layout",
                             [](const ScatterPlan& p) -> std::optional<std::string> {
                               if (!p.weighted) return std::nullopt;
                               return scatter::to_string(p.weighted->weighted.layout);
                             },
                             "\"contiguous\" or \"any\" for a plan of weighted items; None for a plan of counts.")
      .def_property_readonly("weights",
                             [](const ScatterPlan& p) -> std::optional<py::array_t<double>> {
                               if (!p.weighted) return std::nullopt;
                               return double_array(p.weights);
                             },
                             "The items' weights as planned (numpy float64, a copy); None for a plan of counts.")
      .def_property_readonly("work", [](const ScatterPlan& p) { return double_array(work_in_rank_order(p)); },
                             "Work of each processor, in platform (rank) order (numpy float64): the sum of its "
                             "items' weights (its count for a plan of counts).")
      .def_property_readonly("permutation", [](const ScatterPlan& p) { return int_array(permutation_of(p)); },
                             "The item at each position of the blocks (numpy int64): the identity unless the "
                             "layout is any. Block r is positions displacements[r] to displacements[r] + counts[r].")
      .def(
          "_item_ids",
          [](const ScatterPlan& p, const py::int_& rank_int) {
            const auto size = static_cast<long long>(p.platform->processors.size());
            int overflow = 0;
            const long long rank = PyLong_AsLongLongAndOverflow(rank_int.ptr(), &overflow);
            if (rank == -1 && PyErr_Occurred()) throw py::error_already_set();
            if (overflow != 0 || rank < 0 || rank >= size)
              throw Error(fmt::format("rank = {}: expected a rank in [0, {})",
                                      std::string(py::str(py::handle(rank_int))), size));
            const std::vector<std::int64_t> perm = permutation_of(p);
            const auto r = static_cast<std::size_t>(rank);
            const std::int64_t first = displacements_in_rank_order(p)[r], count = counts_in_rank_order(p)[r];
            return int_array(std::vector<std::int64_t>(perm.begin() + first, perm.begin() + first + count));
          },
          py::arg("rank"), "The items rank `rank` holds, in the order of its block (numpy int64).")
      .def_property_readonly("send_order",
                             [](const ScatterPlan& p) {
                               std::vector<std::int64_t> o(p.result.problem.platform_index.begin(),
                                                           p.result.problem.platform_index.end());
                               return int_array(o);
                             },
                             "Platform indices (ranks) in the root's send order, root last (numpy int64).")
      .def_property_readonly("order", [](const ScatterPlan& p) { return p.result.problem.names; },
                             "Processor names in send order, root last.")
      .def_property_readonly("items", [](const ScatterPlan& p) { return p.result.problem.items; })
      .def_property_readonly("makespan", [](const ScatterPlan& p) { return p.result.schedule.makespan; },
                             "Equation (2): the latest finishing date.")
      .def_property_readonly("lower_bound", [](const ScatterPlan& p) { return p.result.plan.lower_bound; },
                             "A proven lower bound on the integer optimum for this order.")
      .def_property_readonly("optimal", [](const ScatterPlan& p) { return p.result.plan.optimal; })
      .def_property_readonly("algorithm", [](const ScatterPlan& p) { return p.result.plan.algorithm; })
      .def_property_readonly("method", [](const ScatterPlan& p) { return p.result.plan.method; })
      .def_property_readonly("root", [](const ScatterPlan& p) { return p.result.root; })
      .def_property_readonly("root_rank", [](const ScatterPlan& p) { return p.result.problem.platform_index.back(); })
      .def_property_readonly("_algorithm_argument", [](const ScatterPlan& p) { return p.algorithm_argument; })
      .def_property_readonly("_order_argument", [](const ScatterPlan& p) { return p.order_argument; })
      .def_property_readonly("_dp_fallback", [](const ScatterPlan& p) { return p.request.exact.dp_fallback; })
      .def_property_readonly("_order_evaluations", [](const ScatterPlan& p) { return p.request.search.max_evaluations; })
      .def_property_readonly("first_finish", [](const ScatterPlan& p) { return p.result.schedule.first_finish; })
      .def_property_readonly("solve_seconds", [](const ScatterPlan& p) { return p.result.solve_seconds; })
      .def_property_readonly("platform",
                             [](const ScatterPlan& p) { return PlatformHandle{p.platform, "platform"}; })
      .def("_perturb", &perturb, py::arg("percent"), py::arg("samples"), py::arg("seed"), py::arg("factors_json"),
           py::arg("factors_path"))
      .def("to_json",
           [](const ScatterPlan& p) {
             return (p.weighted ? io::weighted_scatter_json(*p.weighted) : io::scatter_json(p.result)).dump(2) + "\n";
           },
           "The plan as `hetlb scatter --format json` prints it.")
      .def("__repr__", [](const ScatterPlan& p) {
        return fmt::format("<hetlb.ScatterPlan {} ({}), {} {}items on {} processors, makespan {:.6g}{}>",
                           p.result.plan.algorithm, p.result.root, p.result.problem.items,
                           p.weighted ? fmt::format("weighted ({}) ", scatter::to_string(p.weighted->weighted.layout)) : "",
                           p.result.problem.size(),
                           p.result.schedule.makespan, p.result.plan.optimal ? " (optimal)" : "");
      });

  // Cost models from measured (items, seconds) points (model/calibration.hpp), as the platform file's
  // cost objects (io::cost_to_json): {"per_item": a} / {"latency": l, "per_item": a} (least squares,
  // non-negative) or {"table": [[x, t], ...]} (sorted, equal x averaged, made non-decreasing).
  m.def(
      "_fit_cost",
      [](const std::vector<std::pair<double, double>>& points, const std::string& model) {
        return py::module_::import("json").attr("loads")(io::cost_to_json(fitted_cost(points, model)));
      },
      py::arg("points"), py::arg("model"));
  // Whether the points' fit (as _fit_cost fits them) grows from the smallest to the largest item count.
  m.def(
      "_grows_with_items",
      [](const std::vector<std::pair<double, double>>& points, const std::string& model, double smallest,
         double largest) { return grows_with_items(fitted_cost(points, model), smallest, largest); },
      py::arg("points"), py::arg("model"), py::arg("smallest"), py::arg("largest"));
  m.attr("_max_processors") = io::kMaxProcessors;
  m.def("_plan_scatter", &plan, py::arg("platform"), py::arg("items"), py::arg("algorithm"), py::arg("order"),
        py::arg("root"), py::arg("dp_fallback"), py::arg("order_evaluations"), py::arg("weights") = py::none(),
        py::arg("layout") = "contiguous", "Plans a scatter (hetlb.plan_scatter is the documented entry).");
}

}  // namespace hetlb::python
