// hetlb scatter PLATFORM.json: one plan, as a table, JSON or CSV, and optionally a Gantt chart;
// with --perturb / --factor, how the plan holds when the real costs differ from the model.
#include <chrono>
#include <cmath>
#include <functional>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "hetlb/error.hpp"
#include "hetlb/number_text.hpp"
#include "hetlb/input_file.hpp"
#include "hetlb/io/perturbation_json.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/io/weights_file.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "json_input.hpp"
#include "hetlb/plot/scatter_gantt.hpp"
#include "hetlb/progress.hpp"
#include "hetlb/scatter/perturbation.hpp"
#include "hetlb/scatter/solve.hpp"
#include "hetlb/scatter/weighted.hpp"
#include "number_checks.hpp"
#include "stdout_buffer.hpp"
#include "scatter_output.hpp"
#include "scatter_perturbation_output.hpp"
#include "time_unit.hpp"

namespace hetlb::cli {

namespace {
struct ScatterOptions {
  std::string platform;
  long long items = 0;
  std::string algorithm = "exact";
  std::string order = "bandwidth";
  std::string root;
  std::string format = "table";
  std::string gantt;
  bool dp_fallback = false;
  long long order_evaluations = 2000;
  // Robustness (--perturb / --factor / --factors).
  double perturb = -1;  // < 0: not asked
  bool perturb_given = false;
  long long samples = 100;
  bool samples_given = false;
  unsigned long long seed = 1;
  std::vector<std::string> factors;
  std::string factors_file;
  std::string figure;
  std::string weights;  // per-item weights file (weighted.hpp)
  std::string layout;   // contiguous (default) or any, with --weights
};

double parse_factor(const std::string& where, const std::string& text) {
  const std::optional<double> v = number_of(text);
  if (!v || !(*v > 0) || !std::isfinite(*v))
    throw Error(fmt::format("{}: factor '{}': expected a positive number", where, text));
  return *v;
}

// NAME=F scales NAME's computation cost (a load peak), NAME:comm=F its link.
void apply_factor_option(const Platform& pf, const std::string& opt, std::vector<scatter::CostFactors>& f) {
  const std::size_t eq = opt.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(fmt::format("--factor '{}': expected NAME=FACTOR or NAME:comm=FACTOR", opt));
  std::string name = opt.substr(0, eq);
  bool comm = false;
  if (name.size() > 5 && name.ends_with(":comm")) {
    comm = true;
    name.resize(name.size() - 5);
  } else if (name.size() > 8 && name.ends_with(":compute")) {
    name.resize(name.size() - 8);
  }
  std::size_t idx = 0;
  try {
    idx = pf.index_of(name);
  } catch (const Error& e) {
    throw Error(fmt::format("--factor '{}': {}", opt, e.what()));
  }
  const double v = parse_factor("--factor", opt.substr(eq + 1));
  (comm ? f[idx].comm : f[idx].compute) = v;
}

// {"NAME": F} (computation) or {"NAME": {"compute": F, "comm": G}}.
void apply_factors_file(const Platform& pf, const std::string& path, std::vector<scatter::CostFactors>& f) {
  // One JSON reader for every input (json_input.hpp): nesting depth, duplicate keys, short excerpts.
  const nlohmann::json j = io::detail::parse_json(io::detail::read_text_file(path, "factors"), path);
  if (!j.is_object()) throw Error(fmt::format("{}: expected an object of processor names", path));
  io::apply_cost_factors(pf, j, path, f);
}

// One line on stderr at most every 5 s of a long robustness run: samples done, wall time.
std::function<void(int)> sample_progress(int total) {
  const auto start = std::chrono::steady_clock::now();
  auto last = std::make_shared<std::chrono::steady_clock::time_point>(start);
  return [start, last, total](int done) {
    const auto now = std::chrono::steady_clock::now();
    if (now - *last < std::chrono::seconds(5)) return;
    *last = now;
    fmt::print(stderr, "hetlb: perturbation: {}/{} samples, {:.0f} s\n", done, total,
               std::chrono::duration<double>(now - start).count());
  };
}

void run_scatter(const ScatterOptions& o) {
  set_progress_sink([](const std::string& line) { std::cerr << "hetlb: " << line << std::endl; });  // long plans
  scatter::Request req;
  req.algorithm = scatter::parse_algorithm(o.algorithm);
  if (scatter::is_order_policy(o.order)) req.order = scatter::parse_order_policy(o.order);
  else req.order_list = o.order;
  req.root = o.root;
  req.items = o.items;
  req.exact.dp_fallback = o.dp_fallback;
  req.search.max_evaluations = static_cast<std::size_t>(o.order_evaluations);
  req.search.exact = req.exact;
  const bool robustness = o.perturb_given || !o.factors.empty() || !o.factors_file.empty();
  // Refuse bad values before any work, and leave no output behind.
  if (o.perturb_given && !(o.perturb >= 0 && o.perturb < 100))
    throw Error(fmt::format("--perturb {}: expected a percentage in [0, 100)", o.perturb));
  if (o.samples_given && (o.samples <= 0 || o.samples > scatter::kMaxPerturbationSamples))
    throw Error(fmt::format("--samples {}: expected 1 to {} samples", o.samples, scatter::kMaxPerturbationSamples));
  if (!o.figure.empty() && !robustness)
    throw Error(fmt::format("--figure {}: the robustness figure needs --perturb, --factor or --factors", o.figure));
  plot::check_figure_path("--gantt", o.gantt);
  plot::check_figure_path("--figure", o.figure);
  if (!o.layout.empty() && o.weights.empty())
    throw Error(fmt::format("--layout {}: needs --weights FILE (items of equal cost have one layout)", o.layout));
  if (!o.weights.empty() && robustness)
    throw Error(fmt::format("--weights {}: --perturb, --factor and --factors plan on item counts only", o.weights));
  const Platform platform = io::load_platform_file(o.platform);
  std::optional<scatter::WeightedItems> weights;
  if (!o.weights.empty()) weights = io::load_weights_file(o.weights);
  if (req.items == 0 && platform.items <= 0 && !weights)
    throw Error(fmt::format("{}: no items: give \"items\" in the file or --items N", o.platform));
  if (!req.order_list.empty()) {  // checked before planning, naming the value
    const std::size_t root = o.root.empty() || o.root == "auto" ? platform.root : platform.index_of(o.root);
    if (o.root == "auto") throw Error(fmt::format("--order {}: a list of names needs --root NAME, not auto", o.order));
    bool known = false;
    for (const auto& proc : platform.processors) known = known || proc.name == o.order;
    if (o.order.find(',') == std::string::npos && !known)
      throw Error(fmt::format("--order {}: expected given, bandwidth, reverse-bandwidth, best, or the non-root "
                              "processors by name (a,b,c)",
                              o.order));
    try {
      scatter::explicit_order(platform, root, req.order_list);
    } catch (const Error& e) {
      throw Error(std::string("--") + e.what());
    }
  }
  scatter::PerturbationRequest pr;
  if (robustness) {
    pr.percent = o.perturb_given ? o.perturb : 0.0;
    pr.samples = static_cast<int>(o.perturb_given || o.samples_given ? o.samples : 1);
    pr.seed = o.seed;
    pr.fixed.assign(platform.processors.size(), {});
    if (!o.factors_file.empty()) apply_factors_file(platform, o.factors_file, pr.fixed);
    for (const std::string& f : o.factors) apply_factor_option(platform, f, pr.fixed);
    pr.on_sample = sample_progress(pr.samples);
  }
  std::optional<scatter::WeightedResult> weighted;
  if (weights)
    weighted = scatter::plan_scatter_weighted(platform, req, *weights,
                                              scatter::parse_layout(o.layout.empty() ? "contiguous" : o.layout));
  const scatter::Result result = weighted ? weighted->result : scatter::plan_scatter(platform, req);
  const std::string name = platform.name.empty() ? o.platform : platform.name;
  const auto draw_gantt = [&] {  // times in the table's unit (time_unit.hpp), title and axis alike
    if (o.gantt.empty()) return;
    const TimeUnit u = time_unit_for(result.schedule.makespan);
    plot::render_scatter_gantt(result, o.gantt,
                               fmt::format("{}: {} ({} order), makespan {} {}", name, o.algorithm,
                                           req.order_list.empty() ? o.order : "given list",
                                           time_text(result.schedule.makespan, u, 2), u.name),
                               u.per_second(), u.name);
  };
  if (robustness) {
    const scatter::PerturbationReport report = scatter::perturb_plan(platform, req, result, pr);
    const PerturbationView view{platform, result, pr, report};
    draw_gantt();
    if (!o.figure.empty())
      render_perturbation_figure(view, o.figure,
                                 fmt::format("{}: {} plan ({} order) on perturbed costs, {} samples", name, o.algorithm,
                                             req.order_list.empty() ? o.order : "given list", pr.samples));
    print_perturbation(std::cout, view, o.format);
    return;
  }
  draw_gantt();
  BufferedStdout out;
  if (weighted) print_weighted_scatter(out.stream, platform, *weighted, o.format);
  else print_scatter(out.stream, platform, result, o.format);
}
}  // namespace

void add_scatter_command(CLI::App& app) {
  auto o = std::make_shared<ScatterOptions>();
  CLI::App* sub = app.add_subcommand("scatter", "Plan a load-balanced scatter (RR-4770) on a platform file");
  sub->add_option("platform", o->platform, "platform JSON file")->required();
  sub->add_option("--items", o->items, "number of items (default: the file's \"items\")")
      ->check(CLI::Range(1LL, 1LL << 62));
  sub->add_option("--algorithm", o->algorithm, scatter::algorithm_choices())
      ->check(CLI::IsMember(scatter::algorithm_names()));
  sub->add_option("--order", o->order,
                  "given, bandwidth, reverse-bandwidth, best, or the non-root processors by name: a,b,c")
      ->check(non_empty("given, bandwidth, reverse-bandwidth, best, or the non-root processors by name (a,b,c)"));
  sub->add_option("--order-evaluations", o->order_evaluations, "--order best: exact evaluations at most (default 2000)")
      ->check(CLI::Range(1LL, 1LL << 40));
  sub->add_flag("--dp-fallback", o->dp_fallback,
                "exact: run Algorithm 2 (or 1) where no exact method is proven instead of the best plan found");
  sub->add_option("--root", o->root, "root processor name, or auto (Section 3.4)")
      ->check(non_empty("a processor name or auto"));
  sub->add_option("--format", o->format, "table, json or csv")->check(CLI::IsMember({"table", "json", "csv"}));
  sub->add_option("--gantt", o->gantt, "write a Gantt chart (FILE.png or FILE.svg)");
  sub->add_option_function<double>(
      "--perturb", [o](double v) { o->perturb = v, o->perturb_given = true; },
      "each processor's costs off by up to PCT% (uniform): the plan's makespan distribution and re-planning's");
  sub->add_option_function<long long>(
      "--samples", [o](long long v) { o->samples = v, o->samples_given = true; }, "--perturb: samples (default 100)")
      ->check(whole_number<long long>(1, scatter::kMaxPerturbationSamples));
  sub->add_option("--seed", o->seed, "--perturb: random seed (default 1)")->check(whole_number<unsigned long long>(0, std::numeric_limits<unsigned long long>::max()));
  sub->add_option("--factor", o->factors, "real cost factor: NAME=F (computation, e.g. a load peak) or NAME:comm=F")
      ->allow_extra_args(false);
  sub->add_option("--factors", o->factors_file, "JSON file of factors: {\"NAME\": F or {\"compute\": F, \"comm\": G}}");
  sub->add_option("--weights", o->weights,
                  "per-item work: text (one number per item) or JSON (array, or {\"work\": [...], \"size\": [...]})");
  sub->add_option("--layout", o->layout, "with --weights: contiguous (ranges in item order, default) or any")
      ->check(CLI::IsMember({"contiguous", "any"}));
  sub->add_option("--figure", o->figure, "with --perturb/--factor: distribution figure (FILE.png or FILE.svg)");
  sub->callback([o] { run_scatter(*o); });
}

}  // namespace hetlb::cli
