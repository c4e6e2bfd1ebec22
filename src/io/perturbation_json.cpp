#include "hetlb/io/perturbation_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "hetlb/error.hpp"
#include "hetlb/io/scatter_json.hpp"

namespace hetlb::io {

namespace {
nlohmann::json to_json(const scatter::Distribution& d) {
  return {{"min", d.min}, {"mean", d.mean}, {"median", d.median}, {"p90", d.p90}, {"max", d.max}};
}

nlohmann::json factors_json(const Platform& platform, const scatter::PerturbationRequest& request) {
  nlohmann::json f = nlohmann::json::object();
  for (std::size_t i = 0; i < request.fixed.size(); ++i) {
    const auto& c = request.fixed[i];
    if (c.compute != 1.0 || c.comm != 1.0)
      f[platform.processors[i].name] = {{"compute", c.compute}, {"comm", c.comm}};
  }
  return f;
}
}  // namespace

nlohmann::json perturbation_json(const Platform& platform, const scatter::Result& result,
                                 const scatter::PerturbationRequest& request, const scatter::PerturbationReport& report) {
  nlohmann::json samples = nlohmann::json::array();
  for (const auto& s : report.samples) samples.push_back({{"plan", s.plan}, {"replanned", s.replanned}});
  const nlohmann::json j = {{"plan", scatter_json(result)},
                            {"perturbation",
                             {{"percent", request.percent},
                              {"samples", request.samples},
                              {"seed", request.seed},
                              {"factors", factors_json(platform, request)},
                              {"nominal_makespan", report.nominal},
                              {"plan_makespan", to_json(report.plan)},
                              {"replanned_makespan", to_json(report.replanned)},
                              {"regret", to_json(report.regret)},
                              {"per_sample", samples}}}};
  return j;
}

void apply_cost_factors(const Platform& platform, const nlohmann::json& factors, const std::string& source,
                        std::vector<scatter::CostFactors>& f) {
  for (const auto& item : factors.items()) {
    // Plain variables, not structured bindings: the lambda below captures them (clang 14 refuses).
    const std::string name = item.key();
    const nlohmann::json& value = item.value();
    std::size_t idx = 0;
    try {
      idx = platform.index_of(name);
    } catch (const Error& e) {
      throw Error(fmt::format("{}: {}", source, e.what()));
    }
    auto number = [&](const nlohmann::json& v, const std::string& field) {
      if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
        throw Error(fmt::format("{}: {}{}: expected a positive number", source, name, field));
      return v.get<double>();
    };
    if (value.is_object()) {
      for (const auto& [key, v] : value.items()) {
        if (key == "compute") f[idx].compute = number(v, ".compute");
        else if (key == "comm") f[idx].comm = number(v, ".comm");
        else throw Error(fmt::format("{}: {}.{}: expected compute or comm", source, name, key));
      }
    } else {
      f[idx].compute = number(value, "");
    }
  }
}

}  // namespace hetlb::io
