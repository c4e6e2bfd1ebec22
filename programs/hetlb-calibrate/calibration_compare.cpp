// hetlb-calibration-compare A.json B.json [--tolerance 0.05] [--items N]: are two calibrations of the
// same machine interchangeable for planning? Plans a scatter on each (exact algorithm, bandwidth
// order, the file's root) and evaluates both plans under each platform's model (equation 2): under
// either model the two plans' makespans, and the two predicted makespans (each plan under its own
// calibration), must differ by less than the tolerance. Exit 0 when they do,
// 1 otherwise, 2 on bad input (one line on stderr). Prints the four makespans.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hetlb/build_info.hpp"
#include "hetlb/error.hpp"
#include "hetlb/io/platform_json.hpp"
#include "hetlb/scatter/evaluate.hpp"
#include "hetlb/scatter/solve.hpp"

namespace {

using namespace hetlb;

// The makespan of `plan` (computed on another platform) under `platform`'s costs: same processors,
// same send order, same shares.
double makespan_under(const Platform& platform, const scatter::Result& plan) {
  const scatter::Problem problem = scatter::make_problem(platform, plan.problem.platform_index, plan.problem.items);
  return scatter::makespan(problem, plan.plan.items);
}

}  // namespace

int main(int argc, char** argv) {
  if (hetlb::print_version_if_asked(argc, argv, "hetlb-calibration-compare")) return 0;  // before MPI or any parsing
  if (argc < 3) {
    std::fprintf(stderr, "hetlb-calibration-compare: usage: A.json B.json [--tolerance T] [--items N]\n");
    return 2;
  }
  double tolerance = 0.05;
  long long items = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key == "--tolerance") tolerance = std::atof(argv[i + 1]);
    else if (key == "--items") items = std::atoll(argv[i + 1]);
  }
  try {
    const Platform a = io::load_platform_file(argv[1]), b = io::load_platform_file(argv[2]);
    if (a.processors.size() != b.processors.size())
      throw Error(std::string(argv[2]) + ": " + std::to_string(b.processors.size()) + " processors, expected " +
                  std::to_string(a.processors.size()) + " as in " + argv[1]);
    scatter::Request request;
    request.items = items;
    const scatter::Result pa = scatter::plan_scatter(a, request), pb = scatter::plan_scatter(b, request);
    const double aa = makespan_under(a, pa), ab = makespan_under(a, pb), ba = makespan_under(b, pa), bb = makespan_under(b, pb);
    const double under_a = std::abs(aa - ab) / std::min(aa, ab), under_b = std::abs(ba - bb) / std::min(ba, bb);
    std::printf("model A: plan A %.6g s, plan B %.6g s (%.2f%%); model B: plan A %.6g s, plan B %.6g s (%.2f%%); "
                "own predictions %.6g s and %.6g s (%.2f%%)\n",
                aa, ab, 100 * under_a, ba, bb, 100 * under_b, aa, bb, 100 * std::abs(aa - bb) / std::min(aa, bb));
    const double own = std::abs(aa - bb) / std::min(aa, bb);
    return under_a < tolerance && under_b < tolerance && own < tolerance ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hetlb-calibration-compare: %s\n", e.what());
    return 2;
  }
}
