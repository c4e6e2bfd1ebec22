#include "hetlb/io/build_json.hpp"
#include "scatter_perturbation_output.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetlb/io/perturbation_json.hpp"
#include "hetlb/plot/gnuplot.hpp"
#include "scatter_output.hpp"
#include "time_unit.hpp"

namespace hetlb::cli {

void print_perturbation(std::ostream& out, const PerturbationView& v, const std::string& format) {
  const auto& rep = v.report;
  if (format == "json") {
    nlohmann::json j = io::perturbation_json(v.platform, v.result, v.request, v.report);
    j["build"] = io::build_json();
    out << j.dump(2) << "\n";
    return;
  }
  if (format == "csv") {
    out << "sample,plan_makespan,replanned_makespan,regret\n";
    for (std::size_t k = 0; k < rep.samples.size(); ++k)
      out << fmt::format("{},{:.9g},{:.9g},{:.9g}\n", k + 1, rep.samples[k].plan, rep.samples[k].replanned,
                         rep.samples[k].plan - rep.samples[k].replanned);
    return;
  }
  const auto& r = v.result;
  out << fmt::format("{}: {} processors, {} items, root {}\n", platform_heading(v.platform), r.problem.size(),
                     r.problem.items, r.root);
  const TimeUnit u = time_unit_for(rep.nominal);  // one unit for the report (time_unit.hpp)
  out << fmt::format("plan: {} ({}), makespan on the model {} {}\n", r.plan.algorithm, r.plan.method,
                     time_text(rep.nominal, u), u.name);
  std::string factors;
  for (std::size_t i = 0; i < v.request.fixed.size(); ++i) {
    const auto& c = v.request.fixed[i];
    if (c.compute != 1.0) factors += fmt::format(" {} compute x{:g};", v.platform.processors[i].name, c.compute);
    if (c.comm != 1.0) factors += fmt::format(" {} comm x{:g};", v.platform.processors[i].name, c.comm);
  }
  out << fmt::format("real costs: {}{}{} samples, seed {}\n\n", factors.empty() ? "" : "factors" + factors + " ",
                     v.request.percent > 0 ? fmt::format("each cost off by up to {:g}% (uniform), ", v.request.percent)
                                           : std::string(),
                     v.request.samples, v.request.seed);
  out << fmt::format("{:<26} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "makespan (" + std::string(u.name) + ")", "min", "mean", "median", "p90",
                     "max");
  auto row = [&](const char* name, const scatter::Distribution& d) {
    out << fmt::format("{:<26} {:>10} {:>10} {:>10} {:>10} {:>10}\n", name, time_text(d.min, u), time_text(d.mean, u),
                       time_text(d.median, u), time_text(d.p90, u), time_text(d.max, u));
  };
  row("this plan", rep.plan);
  row("re-planned knowing costs", rep.replanned);
  row("regret (plan - re-plan)", rep.regret);
}

void render_perturbation_figure(const PerturbationView& v, const std::string& path, const std::string& title) {
  std::vector<double> plan, again;
  for (const auto& s : v.report.samples) {
    plan.push_back(s.plan);
    again.push_back(s.replanned);
  }
  std::sort(plan.begin(), plan.end());
  std::sort(again.begin(), again.end());
  const TimeUnit u = time_unit_for(v.report.nominal);  // the table's unit (time_unit.hpp)
  std::string s = "set terminal " + plot::terminal_for(path, 900, 560) + "\n";
  s += "set output " + std::string(plot::kOutputPlaceholder) + "\n";
  s += "set title " + plot::quote(title) + "\n";
  s += "set xlabel 'makespan (" + std::string(u.name) + ")'\nset ylabel 'fraction of samples'\nset yrange [0:1.05]\nset grid\n";
  s += "set key bottom right\n";
  s += "$d << EOD\n";
  const std::size_t n = plan.size();
  for (std::size_t k = 0; k < n; ++k)
    s += fmt::format("{:.9g} {:.9g} {:.9g}\n", plan[k] * u.per_second(), again[k] * u.per_second(),
                     static_cast<double>(k + 1) / static_cast<double>(n));
  s += "EOD\n";
  const double nominal = v.report.nominal * u.per_second();
  s += fmt::format("set arrow from {0:.9g}, graph 0 to {0:.9g}, graph 1 nohead dt 2 lc rgb '#777777'\n", nominal);
  s += fmt::format("set label 'model: {} {}' at {:.9g}, graph 1.02 center\n", time_text(v.report.nominal, u, 1), u.name,
                   nominal);
  s += "plot $d using 1:3 with steps lw 2 lc rgb '#c0392b' title 'this plan on the real costs', \\\n"
       "     $d using 2:3 with steps lw 2 lc rgb '#2471a3' title 're-planned knowing the real costs'\n";
  plot::render(s, path);
}

}  // namespace hetlb::cli
