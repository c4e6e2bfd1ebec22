// hetlb scatter --perturb / --factor: the robustness report (table, JSON, CSV) and its figure.
#pragma once
#include <ostream>
#include <string>

#include "hetlb/model/platform.hpp"
#include "hetlb/scatter/perturbation.hpp"
#include "hetlb/scatter/solve.hpp"

namespace hetlb::cli {

struct PerturbationView {
  const Platform& platform;
  const scatter::Result& result;
  const scatter::PerturbationRequest& request;
  const scatter::PerturbationReport& report;
};

void print_perturbation(std::ostream& out, const PerturbationView& view, const std::string& format);

// Empirical distributions (sorted makespans) of the plan and of re-planning, the model's makespan
// as a reference line. Written through gnuplot to FILE.png or FILE.svg.
void render_perturbation_figure(const PerturbationView& view, const std::string& path, const std::string& title);

}  // namespace hetlb::cli
